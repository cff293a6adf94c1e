#!/usr/bin/env python3
"""What screenshots give away (issue 49): screenshots of web pages, rendered by headless Chromium
at phone, laptop and desktop sizes, each holding one QR code (made with qrencode) of a Wi-Fi
network with a password, an otpauth:// 2FA set-up or an EPC SEPA payment (seeded, varied
payloads: passwords with escaped ; and :, secrets of 80 to 160 bits, amounts with and without
cents). Scans them with codesweep and counts: every Wi-Fi code's content.sensitive names its
password, every otpauth code's its secret, every EPC code has its iban and amount right; then
the same with --redact, where no secret may appear in the output. Prints figures and every miss;
exits 1 on a miss.

  python3 bench/content_screenshots.py [--bin .build/debug/codesweep] [--pages 12] [--seed 49]
                                       [--out bench-out/content-screenshots]
"""
import argparse, base64, json, os, random, subprocess, sys

SIZES = [(390, 844, 3), (1280, 800, 1), (1440, 900, 2)]
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def payloads(rng, n):
    out = []
    for i in range(n):
        kind = ["wifi", "otpauth", "epc"][i % 3]
        if kind == "wifi":
            pw = "".join(rng.choice("abcdefXYZ0123456789-_") for _ in range(rng.randint(8, 20))) + rng.choice(["", "\\;x", "\\:y"])
            text = f"WIFI:T:WPA;S:Net{i};P:{pw};;"
            truth = {"secret": pw}
        elif kind == "otpauth":
            secret = "".join(rng.choice(B32) for _ in range(rng.choice([16, 26, 32])))
            text = f"otpauth://totp/Shop{i}:user{i}@example.com?secret={secret}&issuer=Shop{i}"
            truth = {"secret": secret}
        else:
            cents = rng.randint(100, 99999)
            amount = f"{cents // 100}.{cents % 100:02d}" if i % 2 else str(cents // 100)
            iban = "DE89370400440532013000"
            text = f"BCD\n002\n1\nSCT\n\nShop {i}\n{iban}\nEUR{amount}\n\n\nInvoice {i}"
            truth = {"iban": iban, "amount": amount}
        out.append((kind, text, truth))
    return out


def page(png, i):
    b64 = base64.b64encode(open(png, "rb").read()).decode()
    return f"""<!doctype html><html><body style="font-family:sans-serif;margin:24px;background:{'#fff' if i % 2 else '#f4f4f4'}">
<h1>Set-up step {i}</h1><p>Scan the code below with your phone.</p>
<img src="data:image/png;base64,{b64}" style="width:220px;image-rendering:pixelated"><p>Thank you.</p></body></html>"""


def make(out, rng, n):
    os.makedirs(out, exist_ok=True)
    truth = {}
    for i, (kind, text, t) in enumerate(payloads(rng, n)):
        name = f"shot-{i:02d}-{kind}.png"
        qr = os.path.join(out, f"qr-{i}.png.tmp")
        subprocess.run(["qrencode", "-s", "4", "-m", "4", "-o", qr, text], check=True)
        html = os.path.join(out, f"page-{i}.html")
        open(html, "w").write(page(qr, i))
        w, h, s = SIZES[i % len(SIZES)]
        shots = os.path.join(out, "shots")
        os.makedirs(shots, exist_ok=True)
        subprocess.run(["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--window-size={w},{h}",
                        f"--force-device-scale-factor={s}", f"--screenshot={os.path.join(shots, name)}", "file://" + os.path.abspath(html)],
                       check=True, capture_output=True)
        os.remove(qr); os.remove(html)
        truth[name] = {"kind": kind, "text": text, **t}
    return os.path.join(out, "shots"), truth


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=".build/debug/codesweep")
    ap.add_argument("--pages", type=int, default=12)
    ap.add_argument("--seed", type=int, default=49)
    ap.add_argument("--out", default="bench-out/content-screenshots")
    a = ap.parse_args()
    shots, truth = make(a.out, random.Random(a.seed), a.pages)
    misses = []
    r = subprocess.run([a.bin, "scan", "-q", "--jobs", "2", shots], capture_output=True, text=True)
    found = {k: 0 for k in ("wifi", "otpauth", "epc")}
    for line in r.stdout.splitlines():
        rec = json.loads(line)
        name = os.path.basename(rec["path"])
        t = truth[name]
        codes = [c for c in rec["codes"] if c.get("text") == t["text"]]
        if not codes:
            misses.append(f"{name}: the code was not read"); continue
        content = codes[0].get("content", {})
        fields, sens = content.get("fields", {}), content.get("sensitive", [])
        if t["kind"] == "wifi":
            ok = content.get("type") == "wifi" and any(s["field"] == "password" and s["kind"] == "wifi-password" for s in sens)
        elif t["kind"] == "otpauth":
            ok = content.get("type") == "otpauth" and fields.get("secret") == t["secret"] and any(s["kind"] == "otp-secret" for s in sens)
        else:
            ok = content.get("type") == "epc" and fields.get("iban") == t["iban"] and fields.get("amount") == t["amount"] and content.get("valid")
        if ok: found[t["kind"]] += 1
        else: misses.append(f"{name}: {json.dumps(content)[:300]}")
    red = subprocess.run([a.bin, "scan", "-q", "--jobs", "2", "--redact", shots], capture_output=True, text=True).stdout
    decoded = red + "".join(base64.b64decode(c["bytes_b64"]).decode("utf-8", "replace") for l in red.splitlines() for c in json.loads(l)["codes"])
    leaked = [t["secret"] for t in truth.values() if "secret" in t and t["secret"] in decoded]
    total = {k: sum(1 for t in truth.values() if t["kind"] == k) for k in found}
    print(f"{len(truth)} screenshots: Wi-Fi with password named {found['wifi']}/{total['wifi']}, otpauth with secret named "
          f"{found['otpauth']}/{total['otpauth']}, EPC with iban and amount {found['epc']}/{total['epc']}; "
          f"secrets left in --redact output: {len(leaked)}")
    for m in misses + [f"leaked with --redact: {s}" for s in leaked]: print("  " + m)
    return 1 if misses or leaked else 0


if __name__ == "__main__":
    sys.exit(main())
