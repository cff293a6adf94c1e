#!/usr/bin/env python3
"""Makes the container, mail and video samples of Samples/ and appends their lines to
expected.jsonl (make-samples.sh sorts it after): bundle.zip (two QR codes as members),
deck.docx (a picture in word/media/), newsletter.eml (an inline cid: picture) and
screen-recording.mp4 (two codes, each on screen for a while). Deterministic: fixed member
dates, MIME boundaries and IDs, ffmpeg's bitexact flags with one thread. Geometry as in
make-samples.sh: a QR drawn by `qrencode -s S -m M` at (X, Y) has its symbol at X+M*S.

    python3 scripts/make-container-samples.py OUT TMP EXPECTED
"""
import json
import subprocess
import sys
import zipfile

out, tmp, expected = sys.argv[1:4]
DATE = (2026, 1, 1, 0, 0, 0)


def qr(name, text, scale, margin):
    """A qrencode PNG and its symbol's side in pixels (without the quiet zone)."""
    path = f"{tmp}/{name}.png"
    subprocess.run(["qrencode", "-l", "M", "-s", str(scale), "-m", str(margin), "-o", path, text], check=True)
    side = int(subprocess.run(["/usr/bin/identify", "-format", "%w", path], check=True, capture_output=True, text=True).stdout)
    return path, side - 2 * margin * scale


def code(text, x, y, side, frame=0, tolerance=3, seconds=None):
    c = {"symbology": "qr", "text": text, "corners": [[x, y], [x + side, y], [x + side, y + side], [x, y + side]], "tolerance": tolerance, "frame": frame}
    if seconds:
        c["seconds"] = seconds
    return c


lines = []


def expect(path, codes, status="ok"):
    lines.append(json.dumps({"path": path, "status": status, "codes": codes}, separators=(",", ":")))


def zip_of(path, members):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            z.writestr(zipfile.ZipInfo(name, DATE), data, zipfile.ZIP_DEFLATED)


# bundle.zip: an agency's delivery, two labels.
a, a_side = qr("zip-a", "https://example.com/codesweep/zip", 6, 4)
b, b_side = qr("zip-b", "CS-ZIP-0042", 6, 4)
zip_of(f"{out}/bundle.zip", [("labels/a-qr.png", open(a, "rb").read()), ("labels/b-qr.png", open(b, "rb").read())])
expect("bundle.zip!/labels/a-qr.png", [code("https://example.com/codesweep/zip", 24, 24, a_side)])
expect("bundle.zip!/labels/b-qr.png", [code("CS-ZIP-0042", 24, 24, b_side)])
expect("bundle.zip", [])

# deck.docx: a Word document's picture is a member of its ZIP.
d, d_side = qr("docx", "https://example.com/codesweep/docx", 6, 4)
types = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="png" ContentType="image/png"/></Types>'
zip_of(f"{out}/deck.docx", [("[Content_Types].xml", types), ("word/document.xml", "<w:document/>"), ("word/media/image1.png", open(d, "rb").read())])
expect("deck.docx!/word/media/image1.png", [code("https://example.com/codesweep/docx", 24, 24, d_side)])
expect("deck.docx", [])

# newsletter.eml: HTML with an inline (cid:) picture, base64, fixed boundary and IDs.
m, m_side = qr("mail", "https://example.com/codesweep/mail", 5, 4)
import base64
png64 = base64.encodebytes(open(m, "rb").read()).decode()
eml = f"""From: Marketing <news@example.com>
To: reader@example.com
Subject: Spring codes
Date: Thu, 01 Jan 2026 00:00:00 +0000
Message-ID: <sample-newsletter@example.com>
MIME-Version: 1.0
Content-Type: multipart/related; boundary="codesweep-related"

--codesweep-related
Content-Type: text/html; charset=utf-8
Content-Transfer-Encoding: quoted-printable

<p>Scan the code: <img src=3D"cid:code@example.com"></p>

--codesweep-related
Content-Type: image/png; name="code.png"
Content-Transfer-Encoding: base64
Content-ID: <code@example.com>
Content-Disposition: inline; filename="code.png"

{png64}
--codesweep-related--
""".replace("\n", "\r\n")
open(f"{out}/newsletter.eml", "wb").write(eml.encode())
expect("newsletter.eml!/code.png", [code("https://example.com/codesweep/mail", 20, 20, m_side)])
expect("newsletter.eml", [])

# screen-recording.mp4: a 4 s screen, code A from 0.5 to 2 s, code B from 2 to 3.5 s.
va, va_side = qr("rec-a", "https://example.com/codesweep/recording", 6, 2)
vb, vb_side = qr("rec-b", "WIFI:T:WPA;S:demo;P:demo-pass;;", 6, 2)
subprocess.run([
    "ffmpeg", "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "color=c=white:s=640x360:d=4:r=25", "-i", va, "-i", vb,
    "-filter_complex", "[0][1]overlay=x=40:y=40:enable='between(t,0.5,2)'[m];[m][2]overlay=x=360:y=40:enable='between(t,2,3.5)'[v]",
    "-map", "[v]", "-an", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-threads", "1",
    "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", f"{out}/screen-recording.mp4"], check=True)
expect("screen-recording.mp4", [
    code("https://example.com/codesweep/recording", 52, 52, va_side, frame=2, tolerance=4, seconds=[0.5, 2.0]),
    code("WIFI:T:WPA;S:demo;P:demo-pass;;", 372, 52, vb_side, frame=8, tolerance=4, seconds=[2.0, 3.5]),
])

with open(expected, "a") as f:
    for l in lines:
        f.write(l + "\n")
