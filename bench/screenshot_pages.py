"""The screenshot set of `make bench-screenshots` (bench/screenshots.py): seeded web pages (articles,
chats, sign-in, tickets, shops, payments) rendered by Debian's headless Chromium at phone
(390x844 CSS px at scale 3 = 1170x2532), laptop (1280x800 at 1) and desktop (1440x900 at 2 =
2880x1800) sizes, light and dark, most of them without a code. The codes are drawn at the sizes
pages use them (QR 100-220 CSS px, EAN-13 1.3-2.5 CSS px a module, ...), crisp (nearest
neighbour), smoothly scaled from a bigger image, or as inline SVG, always inside the viewport
(every block above a code has a fixed height, so where it lands is known before rendering).

Codes: QR (URLs, Wi-Fi with passwords, otpauth:// TOTP with a base32 secret, EPC SEPA payments),
Micro QR (segno), rMQR, Data Matrix square and rectangular, Aztec, PDF417, EAN-13 and Code 128
(zint). Truth: OUT/truth.json, {file: [{"symbology", "text"}]} (symbology in the bench's keys:
qr, microqr, rmqr, datamatrix, aztec, pdf417, ean13, code128); OUT/pages.json adds how each page
and code was drawn. Everything is cached in OUT and rebuilt only when the seed, the count or
GENERATOR changes (a stamp file), or a PNG is missing.

  python3 bench/screenshot_pages.py [--out bench-out/screenshots] [--pages 360] [--seed 48]
"""
import argparse, base64, concurrent.futures, html, io, json, os, random, select, shutil, subprocess, sys, tempfile, time

GENERATOR = "screenshots-v2"
DEVICES = {"phone": (390, 844, 3), "laptop": (1280, 800, 1), "desktop": (1440, 900, 2)}
KINDS = {"article": 95, "chat": 70, "signin": 55, "ticket": 60, "shop": 50, "payment": 30}  # pages per kind at --pages 360
CHROMIUM = ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--mute-audio"]

# Per symbology: the CSS width range a page gives it, the quiet zone (modules) drawn around it, linear or not.
SIZES = {"qr": (100, 220, 4), "microqr": (48, 100, 2), "rmqr": (130, 260, 2), "datamatrix": (64, 140, 2),
         "datamatrix-rect": (90, 190, 2), "aztec": (110, 210, 2), "pdf417": (190, 340, 2),
         "ean13": (150, 250, 10), "code128": (170, 330, 10)}
LINEAR = {"ean13", "code128"}
MIN_DEVICE_PX = {"crisp": 2.0, "svg": 2.2, "smooth": 2.6}  # device pixels a module, at least

WORDS = ("the of and to in is for on with as by at from that this be are was it or an new our we your you all more "
         "time year people way day man thing woman life child world school state family student group country problem "
         "hand part place case week company system program question work government number night point home water room "
         "mother area money story fact month lot right study book eye job word business issue side kind head house service "
         "friend father power hour game line end member law car city community name president team minute idea kid body "
         "information back parent face others level office door health person art war history party result change morning "
         "reason research girl guy moment air teacher force education update release train station ticket order delivery "
         "payment invoice account password network coffee weekend meeting project design report market price garden summer").split()
NAMES = ("Anna Ben Carla David Emma Felix Greta Hugo Ines Jonas Klara Lukas Mia Noah Olga Paul Rosa Sami Tara Uwe Vera "
         "Wim Xenia Yusuf Zoe Amelie Bruno Chiara Dario Elif").split()
SURNAMES = ("Schmidt Meyer Keller Novak Rossi Dubois Jansen Berg Costa Weber Wagner Fischer Lang Roth Vogel").split()
CITIES = ("Berlin Hamburg Munich Cologne Vienna Zurich Paris Lyon Amsterdam Brussels Milan Madrid Lisbon Prague Warsaw").split()
IATA = ("FRA MUC BER HAM VIE ZRH CDG AMS BRU MXP MAD LIS PRG WAW CPH OSL").split()
DOMAINS = ("example.com shop.example.org tickets.example.net pay.example.eu news.example.com app.example.io "
           "events.example.de rail.example.at museum.example.fr").split()
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


# --- payloads ----------------------------------------------------------------------------------

def words(r, n, cap=True):
    s = " ".join(r.choice(WORDS) for _ in range(n))
    return s[:1].upper() + s[1:] if cap else s


def token(r, n, alphabet=ALNUM):
    return "".join(r.choice(alphabet) for _ in range(n))


def url(r):
    path = r.choice(["p", "t", "e", "go", "r", "order", "menu", "app/login", "s"])
    q = r.choice(["", "", f"?utm_source=qr&c={token(r, 4).lower()}", f"?ref={r.randint(1000, 99999)}"])
    return f"https://{r.choice(DOMAINS)}/{path}/{token(r, r.randint(5, 10))}{q}"


def wifi(r):
    ssid = r.choice(["Cafe", "Home", "Office", "Guest", "Studio", "Hotel", "Library"]) + r.choice(["-5G", "_Guest", " Lounge", "", "-2.4"]) + str(r.randint(1, 99))
    pw = token(r, r.randint(8, 14), "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!#%&*+-=?@")
    if r.random() < 0.25:  # a password needing escapes: \; \, \: \\ (the Wi-Fi QR grammar)
        pw = pw[:4] + r.choice(["\\;", "\\,", "\\:", "\\\\"]) + pw[4:]
    hidden = r.choice(["", "", "H:false;", "H:true;"])
    return r.choice([f"WIFI:S:{ssid};T:WPA;P:{pw};{hidden};", f"WIFI:T:WPA;S:{ssid};P:{pw};{hidden};"])


def otpauth(r):
    issuer = r.choice(["ExampleBank", "MailBox", "CloudDrive", "DevHub", "ShopPortal", "Payroll"])
    acct = f"{r.choice(NAMES).lower()}.{r.choice(SURNAMES).lower()}@{r.choice(DOMAINS)}"
    secret = token(r, r.choice([16, 26, 32]), B32)
    extra = r.choice(["", "&algorithm=SHA1&digits=6&period=30", "&digits=6", "&period=30"])
    return f"otpauth://totp/{issuer}:{acct}?secret={secret}&issuer={issuer}{extra}"


def iban_de(r):
    bban = "".join(str(r.randint(0, 9)) for _ in range(18))
    n = int(bban + "131400")  # D=13 E=14, check digits 00
    return f"DE{98 - n % 97:02d}{bban}"


def epc(r):
    name = r.choice(["Stadtwerke Beispiel GmbH", "Verein fuer Musik e.V.", f"{r.choice(NAMES)} {r.choice(SURNAMES)}",
                     "Example Energy AG", "Zahnarztpraxis Dr. Berg"])
    bic = r.choice(["COBADEFFXXX", "DEUTDEFF", "GENODEF1S04", "BYLADEM1001", ""])
    amount = f"EUR{r.randint(1, 2500)}.{r.randint(0, 99):02d}"
    ref = r.choice([f"Invoice {r.randint(10000, 99999)}", f"Customer {r.randint(100000, 999999)} / {r.choice(['Jan', 'Feb', 'Mar', 'Apr'])}",
                    f"Order {token(r, 8)}"])
    return "\n".join(["BCD", "002", "1", "SCT", bic, name, iban_de(r), amount, "", "", ref])


def ean13(r):
    d = [r.randint(1, 9)] + [r.randint(0, 9) for _ in range(11)]
    if d[0] == 9 and d[1] == 7:  # no ISBN/ISSN prefixes: a reader may name those isbn13
        d[1] = 5
    s = sum(x * (3 if i % 2 else 1) for i, x in enumerate(d))
    return "".join(map(str, d)) + str((10 - s % 10) % 10)


def code128(r):
    return r.choice([f"ORD-{r.randint(2024, 2026)}-{r.randint(0, 999999):06d}", f"1Z{token(r, 6)}{r.randint(10**9, 10**10 - 1)}",
                     f"INV{r.randint(10**7, 10**8 - 1)}", f"{r.randint(10**11, 10**12 - 1)}", f"RMA {token(r, 6)}"])


def microqr(r):
    return r.choice([str(r.randint(10**5, 10**8)), token(r, r.randint(4, 8), "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
                     f"L{r.randint(1, 99)}-{r.randint(100, 999)}", f"{r.choice(['Hi', 'OK', 'Gate'])} {r.randint(1, 40)}"])


def rmqr(r):
    return r.choice([f"https://ex.co/t/{token(r, 6)}", f"PARCEL {r.randint(10**8, 10**9 - 1)}", f"SEAT {r.randint(1, 30)}{r.choice('ABCDF')} CAR {r.randint(1, 14)}",
                     f"LOT {token(r, 5)} EXP 2027-{r.randint(1, 12):02d}"])


def datamatrix(r, rect):
    if rect:
        return r.choice([f"SN{r.randint(10**6, 10**7 - 1)}", f"PN {r.randint(1000, 9999)}-{r.randint(10, 99)}", token(r, 9)])
    return r.choice([f"ID:{token(r, 10)}|{r.randint(1, 9999)}", f"PN-{r.randint(1000, 9999)}-{r.randint(1000, 9999)} SN:{r.randint(10**6, 10**7 - 1)}",
                     f"https://{r.choice(DOMAINS)}/d/{token(r, 6)}", f"TICKET {token(r, 8)} ROW {r.randint(1, 40)}"])


def aztec(r):
    d, m = r.randint(1, 28), r.randint(1, 12)
    return (f"TKT:{token(r, 8)}|{r.choice(['DB', 'OBB', 'SBB', 'NS', 'SNCF'])}|2026-{m:02d}-{d:02d}|"
            f"{r.choice(CITIES)[:3].upper()}-{r.choice(CITIES)[:3].upper()}|C{r.randint(1, 2)}|W{r.randint(1, 14)}S{r.randint(1, 90)}|"
            f"{r.choice(['ADULT', 'CHILD', 'BC50', 'YOUTH'])}|{r.choice(NAMES).upper()} {r.choice(SURNAMES).upper()}")


def pdf417(r):
    nm = f"{r.choice(SURNAMES).upper()}/{r.choice(NAMES).upper()}"
    a, b = r.sample(IATA, 2)
    return (f"M1{nm:<20}E{token(r, 6)} {a}{b}{r.choice(['LH', 'OS', 'LX', 'KL', 'AF'])} {r.randint(100, 9999):04d} "
            f"{r.randint(1, 365):03d}Y{r.randint(1, 40):03d}{r.choice('ABCDEF')}{r.randint(1, 300):04d} 100")


# --- code bitmaps --------------------------------------------------------------------------------

ZINT = {"rmqr": ["-b", "145"], "datamatrix": ["-b", "71", "--square"], "aztec": ["-b", "92"], "pdf417": ["-b", "55"],
        "ean13": ["-b", "13"], "code128": ["-b", "20"]}


def zint_matrix(args, text, tmp):
    """Rows of 0/1 (1 = dark) of a zint symbol at one pixel a module, no quiet zone."""
    from PIL import Image
    out = os.path.join(tmp, "z.png")
    p = subprocess.run(["zint", *args, "--scale=0.5", "--notext", "--noquietzones", f"--data={text}", "-o", out], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"zint {' '.join(args)} {text!r}: {p.stdout.strip()} {p.stderr.strip()}")
    im = Image.open(out).convert("L")
    w, h = im.size
    px = im.load()
    return [[1 if px[x, y] < 128 else 0 for x in range(w)] for y in range(h)]


def code_matrix(key, text, rect, tmp):
    """(rows of 0/1, zint's or segno's version designator if any) for one code."""
    import segno
    if key in ("qr", "microqr"):
        q = segno.make_qr(text) if key == "qr" else segno.make_micro(text)
        return [list(row) for row in q.matrix], q.designator
    if key == "datamatrix" and rect:
        for vers in range(25, 31):  # the rectangular sizes 8x18 .. 16x48: the smallest that holds it
            try:
                return zint_matrix(["-b", "71", f"--vers={vers}"], text, tmp), f"rect-{vers}"
            except RuntimeError:
                continue
        raise RuntimeError(f"no rectangular Data Matrix holds {text!r}")
    m = zint_matrix(ZINT[key], text, tmp)
    return ([m[0]] if key in LINEAR else m), None  # a linear code: its top row, drawn at the card's bar height


def png_uri(rows, k, invert):
    from PIL import Image
    h, w = len(rows), len(rows[0])
    dark, light = (235, 18) if invert else (0, 255)
    im = Image.new("L", (w, h))
    im.putdata([dark if v else light for row in rows for v in row])
    if k > 1:
        im = im.resize((w * k, h * k), Image.NEAREST)
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def svg_markup(rows, width, height, invert):
    h, w = len(rows), len(rows[0])
    runs = []
    for y, row in enumerate(rows):
        x = 0
        while x < w:
            if row[x]:
                x0 = x
                while x < w and row[x]:
                    x += 1
                runs.append(f"M{x0} {y}h{x - x0}v1h{x0 - x}z")
            x += 1
    fg, bg = ("#ebebeb", "#121212") if invert else ("#000", "#fff")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{width:.2f}" height="{height:.2f}" '
            f'preserveAspectRatio="none" shape-rendering="crispEdges"><rect width="{w}" height="{h}" fill="{bg}"/>'
            f'<path fill="{fg}" d="{"".join(runs)}"/></svg>')


# --- which codes go on which pages ------------------------------------------------------------------

def code_groups(r):
    """[(page kind, [(key, text, rect, invert)])]: every code of the set, grouped by the page it goes on."""
    g = []
    add = lambda kind, *codes: g.append((kind, list(codes)))
    C = lambda key, text, rect=False, invert=False: (key, text, rect, invert)
    for i in range(12):
        add("signin", C("qr", otpauth(r)))
    for i in range(6):
        add("signin", C("qr", url(r)))
    for i in range(8):
        add("chat", C("qr", wifi(r), invert=(i == 0)))
    for i in range(4):
        add("article", C("qr", wifi(r)))
    for i in range(12):
        add("payment", *([C("qr", epc(r))] + ([C("code128", code128(r))] if i % 3 == 0 else [])))
    for i in range(6):
        add("chat", C("qr", url(r), invert=(i == 1)))
    for i in range(12):
        add("article", C("qr", url(r), invert=(i in (2, 7))))
    for i in range(15):
        add("ticket", *([C("aztec", aztec(r))] + ([C("code128", code128(r))] if i % 4 == 0 else [])))
    for i in range(14):
        add("ticket", *([C("pdf417", pdf417(r))] + ([C("qr", url(r))] if i % 5 == 0 else [])))
    for i in range(6):
        add("ticket", C("qr", url(r)))
    for i in range(6):
        add("ticket", C("datamatrix", datamatrix(r, False)))
    for i in range(6):
        add(r.choice(["shop", "article", "payment"]), C("datamatrix", datamatrix(r, False)))
    for i in range(10):
        add(r.choice(["shop", "ticket", "payment"]), C("datamatrix", datamatrix(r, True), rect=True))
    for i in range(14):
        add(r.choice(["shop", "ticket", "chat", "article"]), C("microqr", microqr(r)))
    for i in range(14):
        add(r.choice(["shop", "ticket", "payment"]), C("rmqr", rmqr(r)))
    n = 0
    while n < 20:  # product pages: 1-3 EAN-13 each
        k = min(20 - n, r.choice([1, 1, 2, 3]))
        add("shop", *[C("ean13", ean13(r)) for _ in range(k)])
        n += k
    for i in range(8):
        add(r.choice(["shop", "payment", "chat"]), C("code128", code128(r)))
    return g


# --- pages ---------------------------------------------------------------------------------------

THEMES = {"light": {"bg": "#ffffff", "fg": "#1d1d1f", "muted": "#6e6e73", "panel": "#f2f2f7", "accent": "#0a66c2", "line": "#d8d8de"},
          "dark": {"bg": "#121214", "fg": "#ececf0", "muted": "#9a9aa2", "panel": "#1f1f23", "accent": "#5aa2ff", "line": "#34343a"}}


def paragraphs(r, n):
    return "".join(f"<p>{html.escape(words(r, r.randint(25, 70)))}.</p>" for _ in range(n))


def filler(r, kind, theme):
    """The page's own content (no code): a few screens of it; what overflows the viewport is cut."""
    t = THEMES[theme]
    if kind == "article":
        return (f"<h1>{html.escape(words(r, r.randint(5, 11)))}</h1><div class=muted>By {r.choice(NAMES)} {r.choice(SURNAMES)} · "
                f"{r.randint(2, 14)} min read · {r.randint(1, 28)} Nov 2026</div>"
                f"<div class=hero style='background:linear-gradient({r.randint(0, 359)}deg,{t['accent']},{t['panel']})'></div>"
                + paragraphs(r, r.randint(6, 12)))
    if kind == "chat":
        out = [f"<div class=chathead><span class=avatar></span><b>{r.choice(NAMES)}</b> <span class=muted>online</span></div>"]
        for _ in range(r.randint(10, 22)):
            side = r.choice(["me", "them"])
            out.append(f"<div class='bubble {side}'>{html.escape(words(r, r.randint(2, 24)))}<span class=time>{r.randint(8, 22)}:{r.randint(0, 59):02d}</span></div>")
        return "".join(out)
    if kind == "signin":
        return (f"<div class=card><h2>Sign in to {r.choice(['ExampleBank', 'MailBox', 'CloudDrive', 'DevHub'])}</h2>"
                f"<label>Email</label><div class=input>{r.choice(NAMES).lower()}@{r.choice(DOMAINS)}</div>"
                "<label>Password</label><div class=input>••••••••••</div><div class=button>Sign in</div>"
                f"<div class=muted>Forgot password? · Create account · {html.escape(words(r, 8))}</div></div>" + paragraphs(r, 2))
    if kind == "ticket":
        a, b = r.sample(CITIES, 2)
        return (f"<h2>{a} → {b}</h2><div class=muted>{r.randint(1, 28)} Dec 2026 · {r.randint(5, 22)}:{r.randint(0, 59):02d} · "
                f"Platform {r.randint(1, 19)}</div><table>" + "".join(
                    f"<tr><td>{html.escape(words(r, 2))}</td><td>{token(r, r.randint(3, 8))}</td></tr>" for _ in range(r.randint(5, 10)))
                + "</table>" + paragraphs(r, 3))
    if kind == "shop":
        cards = "".join(f"<div class=product><div class=thumb style='background:hsl({r.randint(0, 359)},40%,60%)'></div>"
                        f"<div>{html.escape(words(r, 3))}</div><b>€{r.randint(3, 400)}.{r.randint(0, 99):02d}</b></div>"
                        for _ in range(r.randint(6, 12)))
        return f"<h2>{html.escape(words(r, 3))}</h2><div class=grid>{cards}</div>" + paragraphs(r, 2)
    rows = "".join(f"<tr><td>{html.escape(words(r, 3))}</td><td>{r.randint(1, 5)}</td><td>€{r.randint(1, 300)}.{r.randint(0, 99):02d}</td></tr>"
                   for _ in range(r.randint(3, 8)))
    return (f"<h2>Invoice {r.randint(10000, 99999)}</h2><div class=muted>Due {r.randint(1, 28)} Dec 2026 · IBAN {iban_de(r)}</div>"
            f"<table>{rows}</table><div class=button>Pay now</div>" + paragraphs(r, 2))


CAPTIONS = {"qr": ["Scan with your phone", "Scan to join", "Scan to pay", "Scan me", "Open on your phone"],
            "microqr": ["Shelf code", "Locker", "Tag"], "rmqr": ["Parcel label", "Seat", "Label"],
            "datamatrix": ["Item code", "Part", "Ticket code"], "aztec": ["Show this code at the gate", "Your ticket"],
            "pdf417": ["Boarding pass", "Scan at security"], "ean13": [""], "code128": ["Order number", "Tracking", "Reference"]}


def place_codes(r, codes, device, theme, avail_w, tmp):
    """HTML of the row(s) of code cards, their height in CSS px, and what was drawn."""
    _, _, scale = DEVICES[device]
    cards, drawn = [], []
    for key, text, rect, invert in codes:
        rows, designator = code_matrix(key, text, rect, tmp)
        size_key = "datamatrix-rect" if rect else key
        wmin, wmax, qz = SIZES[size_key]
        cols = len(rows[0])
        style = r.choice(["crisp", "crisp", "svg", "smooth"])
        mpx = max(r.uniform(wmin, wmax) / cols, MIN_DEVICE_PX[style] / scale)
        w = cols * mpx
        h = r.uniform(45, 80) if key in LINEAR else len(rows) * mpx
        if key == "ean13":
            h = max(h, w * 0.45)
        pad = max(qz * mpx, 8)
        if style == "svg":
            img = svg_markup(rows, w, h, invert)
        else:
            k = 1 if style == "crisp" else r.choice([6, 8, 10])
            rend = "pixelated" if style == "crisp" else "auto"
            img = f'<img src="{png_uri(rows, k, invert)}" style="width:{w:.2f}px;height:{h:.2f}px;image-rendering:{rend};display:block">'
        cap = text if key == "ean13" else r.choice(CAPTIONS[key])
        bg = "#121212" if invert else "#ffffff"
        fg = "#ebebeb" if invert else "#222"
        cards.append((w + 2 * pad, h + 2 * pad + 22,
                      f'<div class=code style="background:{bg};color:{fg};padding:{pad:.2f}px">{img}'
                      f'<div class=cap style="width:{w:.2f}px">{html.escape(cap)}</div></div>'))
        drawn.append({"symbology": key, "text": text, "style": style, "css_px_per_module": round(mpx, 3),
                      "device_px_per_module": round(mpx * scale, 2), "modules": [cols, len(rows)], "invert": invert,
                      "version": designator, "css_size": [round(w, 1), round(h, 1)]})
    # Greedy rows within the width; gap 16.
    rows_html, heights, line, lw, lh = [], [], [], 0, 0
    for cw, ch, markup in cards:
        if line and lw + 16 + cw > avail_w:
            rows_html.append(line); heights.append(lh); line, lw, lh = [], 0, 0
        line.append(markup); lw += cw + (16 if len(line) > 1 else 0); lh = max(lh, ch)
    if line:
        rows_html.append(line); heights.append(lh)
    align = r.choice(["flex-start", "center", "flex-end"])
    out = "".join(f'<div class=coderow style="justify-content:{align};height:{hh + 8:.0f}px">{"".join(l)}</div>' for l, hh in zip(rows_html, heights))
    return out, sum(hh + 16 for hh in heights), drawn


CSS = """*{box-sizing:border-box}html,body{margin:0;height:100%;overflow:hidden}
body{background:BG;color:FG;font:FONTpx/1.5 FAMILY}
header{height:HEADpx;display:flex;align-items:center;gap:18px;padding:0 20px;border-bottom:1px solid LINE;background:PANEL;overflow:hidden}
header .logo{width:28px;height:28px;border-radius:8px;background:ACCENT}header nav{color:MUTED;white-space:nowrap}
.wrap{display:flex;gap:28px;padding:PADpx;height:calc(100% - HEADpx)}
main{flex:1;min-width:0;overflow:hidden}aside{width:ASIDEpx;flex:none;overflow:hidden;color:MUTED;border-left:1px solid LINE;padding-left:20px}
.block{overflow:hidden}.muted{color:MUTED}h1{font-size:1.9em;line-height:1.2;margin:.3em 0}h2{margin:.4em 0}
.hero{height:180px;border-radius:12px;margin:12px 0}
.chathead{display:flex;gap:10px;align-items:center;padding:8px 0}.avatar{width:36px;height:36px;border-radius:50%;background:ACCENT;display:inline-block}
.bubble{max-width:75%;padding:8px 12px;border-radius:16px;margin:6px 0;background:PANEL;width:fit-content}.bubble.me{margin-left:auto;background:ACCENT;color:#fff}
.time{font-size:.75em;opacity:.7;margin-left:8px}
label{display:block;margin-top:12px;color:MUTED}.input{border:1px solid LINE;border-radius:8px;padding:10px;margin-top:4px}
.button{display:inline-block;background:ACCENT;color:#fff;border-radius:8px;padding:10px 22px;margin:14px 0}
table{border-collapse:collapse;width:100%;margin:10px 0}td{border-bottom:1px solid LINE;padding:6px 4px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:14px}.product{background:PANEL;border-radius:10px;padding:10px}
.thumb{height:110px;border-radius:8px;margin-bottom:6px}
.coderow{display:flex;gap:16px;align-items:flex-start;margin:8px 0}.code{border-radius:10px;flex:none}
.cap{font-size:12px;line-height:18px;margin-top:4px;text-align:center;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
"""


def page_html(r, kind, device, theme, codes, tmp):
    """(html, drawn codes) of one page."""
    vw, vh, scale = DEVICES[device]
    t = THEMES[theme]
    head = r.randint(48, 72)
    pad = r.choice([12, 16, 20]) if device == "phone" else r.choice([24, 32, 40])
    aside = 0 if device == "phone" or r.random() < 0.3 else r.randint(260, 340)
    css = CSS
    for k, v in {"BG": t["bg"], "FG": t["fg"], "MUTED": t["muted"], "PANEL": t["panel"], "ACCENT": t["accent"], "LINE": t["line"],
                 "FONT": str(r.choice([14, 15, 16, 17])), "FAMILY": r.choice(["'DejaVu Sans',sans-serif", "'Liberation Sans',sans-serif",
                                                                               "'Liberation Serif',serif", "'DejaVu Serif',serif"]),
                 "HEAD": str(head), "PAD": str(pad), "ASIDE": str(aside)}.items():
        css = css.replace(k, v)
    main_w = vw - 2 * pad - (aside + 28 if aside else 0)
    avail_h = vh - head - 2 * pad
    body, side, drawn = filler(r, kind, theme), paragraphs(r, 3), []
    if codes:
        in_aside = aside and all(SIZES["datamatrix-rect" if c[2] else c[0]][1] + 40 < aside for c in codes) and r.random() < 0.5
        rows, rows_h, drawn = place_codes(r, codes, device, theme, (aside - 20) if in_aside else main_w, tmp)
        if rows_h > avail_h - 10:
            raise RuntimeError(f"codes {[c[0] for c in codes]} do not fit a {device} page")
        above = r.randint(0, int(avail_h - rows_h - 10))  # the fixed-height block above the codes: they land in the viewport
        if in_aside:
            side = f"<div class=block style='height:{above}px'>{paragraphs(r, 4)}</div>{rows}{side}"
        else:
            body = f"<div class=block style='height:{above}px'>{body}</div>{rows}{paragraphs(r, 3)}"
    nav = " · ".join(words(r, 1) for _ in range(r.randint(2, 6 if device != "phone" else 3)))
    doc = (f"<!doctype html><html><head><meta charset=utf-8><style>{css}</style></head><body>"
           f"<header><span class=logo></span><b>{html.escape(words(r, 2))}</b><nav>{html.escape(nav)}</nav></header>"
           f"<div class=wrap><main>{body}</main>" + (f"<aside>{side}</aside>" if aside else "") + "</div></body></html>")
    return doc, drawn


# --- the set -----------------------------------------------------------------------------------------

def plan(seed, pages, tmp):
    """[(name, html, kind, device, theme, drawn codes)] for the whole set."""
    r = random.Random(seed)
    counts = {k: max(1, round(v * pages / sum(KINDS.values()))) for k, v in KINDS.items()}
    slots = [k for k, n in counts.items() for _ in range(n)]
    r.shuffle(slots)
    groups = code_groups(r)
    by_kind = {}
    for kind, codes in groups:
        by_kind.setdefault(kind, []).append(codes)
    out = []
    for i, kind in enumerate(slots):
        device = ["phone", "laptop", "desktop"][i % 3]
        theme = "dark" if r.random() < 0.4 else "light"
        pending = by_kind.get(kind, [])
        codes = pending.pop() if pending else []
        html_doc, drawn = page_html(r, kind, device, theme, codes, tmp)
        out.append((f"{i:03d}-{kind}-{device}-{theme}.png", html_doc, kind, device, theme, drawn))
    left = sum(len(v) for v in by_kind.values())
    if left:
        raise RuntimeError(f"{left} code groups found no page of their kind: raise --pages")
    return out


class Chromium:
    """One headless Chromium driven over --remote-debugging-pipe (the DevTools protocol on fds 3/4):
    pages are loaded in one tab and captured with Page.captureScreenshot at the device's size and
    scale, as `chromium --headless --window-size=W,H --force-device-scale-factor=S --screenshot`
    does, without starting a browser for every page (that costs seconds a page on a busy machine)."""

    def __init__(self, profile):
        r3, self.w = os.pipe()  # Chromium reads commands on fd 3
        self.r, w4 = os.pipe()  # and writes replies and events on fd 4
        acts = [(os.POSIX_SPAWN_DUP2, r3, 3), (os.POSIX_SPAWN_DUP2, w4, 4),
                (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0), (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
        exe = shutil.which(CHROMIUM[0])
        if not exe:
            raise RuntimeError("chromium not found (apt-get install chromium)")
        self.pid = os.posix_spawn(exe, CHROMIUM + [f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"],
                                  os.environ, file_actions=acts)
        os.close(r3)
        os.close(w4)
        self.buf, self.next_id, self.events = b"", 0, []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable", session=True)

    def _read(self):
        while b"\0" not in self.buf:
            if not select.select([self.r], [], [], 120)[0]:
                raise RuntimeError("chromium: no answer on its DevTools pipe in 120 s")
            chunk = os.read(self.r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed its DevTools pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=False):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        while True:
            m = self._read()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"chromium {method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method):
        for i, m in enumerate(self.events):
            if m.get("method") == method:
                del self.events[: i + 1]
                return m
        self.events = []
        while True:
            m = self._read()
            if m.get("method") == method:
                return m

    def screenshot(self, html_path, png, device):
        vw, vh, scale = DEVICES[device]
        self.call("Emulation.setDeviceMetricsOverride", {"width": vw, "height": vh, "deviceScaleFactor": scale, "mobile": False}, session=True)
        self.events = []
        self.call("Page.navigate", {"url": "file://" + html_path}, session=True)
        self.wait_event("Page.loadEventFired")
        data = self.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": False}, session=True)["data"]
        with open(png, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close")
        except RuntimeError:
            pass
        os.close(self.w)
        os.close(self.r)
        os.waitpid(self.pid, 0)


def render_lane(lane, profile):
    """Renders [(html, png, device)] in one Chromium; returns how many."""
    browser = Chromium(profile)
    try:
        for html_path, png, device in lane:
            browser.screenshot(html_path, png, device)
    finally:
        browser.close()
    return len(lane)


def build(out, pages, seed, workers=2):
    """Makes (or reuses) the set in OUT; returns (image folder, truth {file: [{symbology, text}]})."""
    img_dir, html_dir = os.path.join(out, "images"), os.path.join(out, "pages")
    stamp_path, truth_path = os.path.join(out, "stamp.json"), os.path.join(out, "truth.json")
    stamp = {"generator": GENERATOR, "seed": seed, "pages": pages}
    if os.path.exists(stamp_path) and json.load(open(stamp_path)) == stamp and os.path.exists(truth_path):
        truth = json.load(open(truth_path))
        if all(os.path.exists(os.path.join(img_dir, f)) for f in truth):
            return img_dir, truth
    for d in (img_dir, html_dir):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    if os.path.exists(stamp_path):
        os.remove(stamp_path)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.monotonic()
        sets = plan(seed, pages, tmp)
        truth, meta, jobs = {}, {}, []
        for name, doc, kind, device, theme, drawn in sets:
            hp = os.path.abspath(os.path.join(html_dir, name[:-4] + ".html"))
            with open(hp, "w") as f:
                f.write(doc)
            truth[name] = [{"symbology": d["symbology"], "text": d["text"]} for d in drawn]
            meta[name] = {"kind": kind, "device": device, "theme": theme, "size": [DEVICES[device][0] * DEVICES[device][2], DEVICES[device][1] * DEVICES[device][2]], "codes": drawn}
            jobs.append((hp, os.path.abspath(os.path.join(img_dir, name)), device))
        print(f"screenshots: {len(sets)} pages, {sum(len(v) for v in truth.values())} codes planned in {time.monotonic() - t0:.1f} s; "
              f"rendering with chromium, {workers} at a time ...", file=sys.stderr)
        t0 = time.monotonic()
        # One Chromium (with a profile of its own) for each of `workers` lanes of pages.
        with concurrent.futures.ThreadPoolExecutor(workers) as ex:
            done = sum(ex.map(lambda i: render_lane(jobs[i::workers], os.path.join(tmp, f"profile-{i}")), range(workers)))
        print(f"screenshots: rendered {done} pages in {time.monotonic() - t0:.0f} s", file=sys.stderr)
    with open(os.path.join(out, "pages.json"), "w") as f:
        json.dump(meta, f, indent=1)
    with open(truth_path, "w") as f:
        json.dump(truth, f, indent=1, ensure_ascii=False)
    with open(stamp_path, "w") as f:
        json.dump(stamp, f)
    return img_dir, truth


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="bench-out/screenshots")
    ap.add_argument("--pages", type=int, default=360)
    ap.add_argument("--seed", type=int, default=48)
    a = ap.parse_args()
    img_dir, truth = build(a.out, a.pages, a.seed)
    counts = {}
    for codes in truth.values():
        for c in codes:
            counts[c["symbology"]] = counts.get(c["symbology"], 0) + 1
    print(f"{img_dir}: {len(truth)} screenshots, {sum(counts.values())} codes: "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
