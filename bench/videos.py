#!/usr/bin/env python3
"""Videos (issue 61): codesweep against the script a user writes instead, on four videos of our own.

Makes (deterministically, with Debian's ffmpeg CLI: lavfi sources, qrencode/zint PNGs overlaid with
`enable='between(t,a,b)'`; cached in OUT) four videos, then times in one run, ROUNDS times
interleaved:
  peer       per video `ffmpeg -i V -vf fps=4,format=gray -f image2pipe -vcodec pgm -` piped into
             Python, `zxingcpp.read_barcodes` (zxing-cpp 3.1, default options) on each frame, the
             reads merged into spans (first..last frame time that read the same format and text);
             PEER_JOBS videos at a time (one process tree per video)
  codesweep  `codesweep scan --jobs 2 OUT` at the default effort (default --video-fps 4)
and prints per video the ground truth and both readers' codes with their spans, whether codesweep
finds every code the peer finds with a span overlapping the peer's, the median wall and CPU seconds
(RUSAGE_CHILDREN) of each reader, the ratio codesweep/peer (target <= 1.0x, aim 0.5x) and
codesweep's peak RSS (VmRSS of its process tree summed, sampled every 50 ms; target <= 512 MB), and
the seconds each reader's threads waited, runnable, for a CPU (on a shared machine).
Prints figures; asserts nothing.

  ad       1920x1080 30 fps 30 s H.264 MP4: moving test pattern, a QR code for 2 s mid-way, a QR
           end card (white) for the last 5 s
  screen   1280x720 30 fps 60 s H.264 MP4: a still desktop with a moving pointer, 3 codes for 1-5 s
           (a Wi-Fi QR, a small otpauth QR at 3 px a module, a Code 128 at 4 px)
  lecture  640x360 25 fps 300 s VP9 WebM: 15 slides of 20 s each, 5 codes on 4 slides, one for 0.6 s
  phone    portrait: 1280x720 coded, rotate=90 (stream copy), HEVC MOV, 15 s, moving test pattern
           with noise, a QR code and an EAN-13

  python3 bench/videos.py [--bin .build/release/codesweep] [--jobs 2] [--peer-jobs 2] [--rounds 3]
                          [--out bench-out/videos] [--fps 4]

Needs ffmpeg, qrencode and zint (Debian), numpy and zxing-cpp 3.1 (pip install 'zxing-cpp==3.1.*').
"""
import argparse, base64, json, os, resource, subprocess, sys, threading, time
from concurrent.futures import ThreadPoolExecutor

GEN_VERSION = 2
HERE = os.path.dirname(os.path.abspath(__file__))

# Ground truth: per video, (symbology, payload, on screen from, to (seconds), how it is drawn).
# A code is drawn with `enable='between(t,a,b)'`, so it is on screen for a <= t <= b.
VIDEOS = {
    "ad": {
        "file": "ad-1080p-h264.mp4",
        "codes": [
            ("qr", "https://shop.example.com/spring-sale?utm=ad", 12.0, 14.0, {"qr": 8, "x": 1480, "y": 120}),
            ("qr", "https://example.com/app", 25.0, 30.0, {"qr": 16, "x": "(W-w)/2", "y": "(H-h)/2"}),
        ],
    },
    "screen": {
        "file": "screen-720p-h264.mp4",
        "codes": [
            ("qr", "WIFI:T:WPA;S:office-guest;P:correct horse;;", 8.0, 13.0, {"qr": 5, "x": 820, "y": 260}),
            ("qr", "otpauth://totp/CodeSweep:dev@example.com?secret=JBSWY3DPEHPK3PXP&issuer=CodeSweep", 27.0, 28.5,
             {"qr": 3, "x": 600, "y": 420}),
            ("code128", "INV-2026-004211", 44.0, 45.0, {"zint": 20, "scale": 2, "x": 360, "y": 500}),
        ],
    },
    "lecture": {
        "file": "lecture-360p-vp9.webm",
        "codes": [
            ("qr", "https://lecture.example.edu/course/cs101", 20.0, 40.0, {"qr": 3, "x": 440, "y": 150}),
            ("code128", "CS101-LAB-03", 100.0, 120.0, {"zint": 20, "scale": 1, "x": 130, "y": 200}),
            ("qr", "https://lecture.example.edu/quiz/7", 180.0, 200.0, {"qr": 3, "x": 60, "y": 150}),
            ("qr", "https://lecture.example.edu/notes/7", 180.0, 200.0, {"qr": 3, "x": 420, "y": 150}),
            ("qr", "FLASH-0.6S-CODE", 250.0, 250.6, {"qr": 4, "x": 250, "y": 140}),
        ],
    },
    "phone": {
        "file": "phone-portrait-hevc.mov",
        "codes": [
            ("qr", "https://example.com/menu/table-12", 2.0, 7.0, {"qr": 8, "x": "200+12*sin(2*t)", "y": "420+9*cos(3*t)"}),
            ("ean13", "4006381333931", 9.0, 13.0, {"zint": 13, "scale": 1.5, "x": "180+10*sin(2*t)", "y": "700+8*cos(3*t)"}),
        ],
    },
}
ZX_NAMES = {"QRCode": "qr", "Code128": "code128", "EAN13": "ean13", "EAN8": "ean8", "UPCA": "upca", "UPCE": "upce",
            "DataMatrix": "datamatrix", "Aztec": "aztec", "PDF417": "pdf417", "Code39": "code39", "ITF": "itf",
            "MicroQRCode": "microqr", "RMQRCode": "rmqr", "Codabar": "codabar", "Code93": "code93"}


def run(cmd):
    p = subprocess.run(cmd, capture_output=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)[:300]} failed: {p.stderr.decode(errors='replace')[-600:]}")


def code_png(out, i, sym, text, how):
    path = os.path.join(out.rstrip("/") + "-src", f"code{i}.png")
    if "qr" in how:
        run(["qrencode", "-o", path, "-s", str(how["qr"]), "-m", "4", "-l", "M", text])
    else:
        run(["zint", "-b", str(how["zint"]), "-d", text[:12] if sym == "ean13" else text, "--scale", str(how["scale"]),
             "--quietzones", "-o", path])
    return path


def slides(np, out):
    """15 slides (640x360 PGM): a title bar and grey text lines, seeded."""
    rng = np.random.default_rng(61)
    paths = []
    for k in range(15):
        img = np.full((360, 640), 250, np.uint8)
        img[0:56, :] = 40 + 10 * (k % 5)
        img[18:38, 30:30 + int(rng.integers(200, 520))] = 235
        for j in range(int(rng.integers(5, 11))):
            y = 80 + j * 26
            img[y:y + 10, 40:40 + int(rng.integers(120, 560))] = 110
        p = os.path.join(out.rstrip("/") + "-src", f"slide{k:02d}.pgm")
        with open(p, "wb") as f:
            f.write(b"P5\n640 360\n255\n" + img.tobytes())
        paths.append(p)
    return paths


def overlays(first_input, spec, pngs, last_label):
    """Filter chain overlaying each code's PNG (input first_input + i) while it is on screen."""
    chain, cur = [], last_label
    for i, ((_, _, a, b, how), _) in enumerate(zip(spec["codes"], pngs)):
        nxt = f"o{i}"
        chain.append(f"[{cur}][{first_input + i}:v]overlay=x='{how['x']}':y='{how['y']}':eval=frame:"
                     f"enable='between(t,{a},{b})'[{nxt}]")
        cur = nxt
    return chain, cur


def make(name, out, np):
    spec = VIDEOS[name]
    target = os.path.join(out, spec["file"])
    pngs = [code_png(out, f"{name}{i}", s, t, how) for i, (s, t, _, _, how) in enumerate(spec["codes"])]
    code_inputs = sum((["-i", p] for p in pngs), [])
    enc264 = ["-c:v", "libx264", "-preset", "medium", "-crf", "23", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]
    base = ["ffmpeg", "-nostdin", "-loglevel", "error", "-y"]
    if name == "ad":
        src = ["-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=30:d=30"]
        pre = ["[0:v]drawbox=x=0:y=0:w=iw:h=ih:color=white:t=fill:enable='between(t,25,30)'[b]"]
        chain, last = overlays(1, spec, pngs, "b")
        run(base + src + code_inputs + ["-filter_complex", ";".join(pre + chain), "-map", f"[{last}]", *enc264, target])
    elif name == "screen":
        src = ["-f", "lavfi", "-i", "color=c=0xe8e8ec:s=1280x720:r=30:d=60", "-f", "lavfi", "-i", "color=c=black:s=12x18:r=30:d=60"]
        pre = ["[0:v]drawbox=x=0:y=0:w=iw:h=28:color=0x303040:t=fill,drawbox=x=0:y=28:w=220:h=692:color=0xd0d0d8:t=fill,"
               "drawbox=x=260:y=70:w=960:h=600:color=white:t=fill,drawbox=x=260:y=70:w=960:h=30:color=0x5070a0:t=fill,"
               "drawbox=x=300:y=130:w=600:h=8:color=0x808080:t=fill,drawbox=x=300:y=160:w=760:h=8:color=0x808080:t=fill,"
               "drawbox=x=300:y=190:w=420:h=8:color=0x808080:t=fill[d]",
               "[d][1:v]overlay=x='if(lt(mod(t,20),3),300+120*mod(t,20),660)':y='if(lt(mod(t,20),3),200+50*mod(t,20),350)':"
               "eval=frame[b]"]
        chain, last = overlays(2, spec, pngs, "b")
        run(base + src + code_inputs + ["-filter_complex", ";".join(pre + chain), "-map", f"[{last}]", *enc264, target])
    elif name == "lecture":
        sl = slides(np, out)
        src = sum((["-loop", "1", "-framerate", "25", "-t", "20", "-i", p] for p in sl), [])
        pre = ["".join(f"[{k}:v]" for k in range(len(sl))) + f"concat=n={len(sl)}:v=1:a=0,format=yuv420p[b]"]
        chain, last = overlays(len(sl), spec, pngs, "b")
        run(base + src + code_inputs + ["-filter_complex", ";".join(pre + chain), "-map", f"[{last}]", "-c:v", "libvpx-vp9",
                                        "-deadline", "good", "-cpu-used", "5", "-row-mt", "1", "-b:v", "0", "-crf", "36",
                                        "-g", "250", "-pix_fmt", "yuv420p", target])
    elif name == "phone":
        src = ["-f", "lavfi", "-i", "testsrc2=s=720x1280:r=30:d=15"]
        pre = ["[0:v]noise=alls=8:allf=t[b]"]
        chain, last = overlays(1, spec, pngs, "b")
        chain.append(f"[{last}]transpose=clock,format=yuv420p[t]")  # shown upright with rotate=90
        tmp = target + ".landscape.mov"
        run(base + src + code_inputs + ["-filter_complex", ";".join(pre + chain), "-map", "[t]", "-c:v", "libx265",
                                        "-preset", "fast", "-crf", "26", "-x265-params", "log-level=error", "-tag:v", "hvc1", tmp])
        run(base + ["-i", tmp, "-c", "copy", "-metadata:s:v:0", "rotate=90", target])
        os.remove(tmp)


def generate(out, names):
    import numpy as np
    os.makedirs(out, exist_ok=True)
    os.makedirs(out.rstrip("/") + "-src", exist_ok=True)
    mf = os.path.join(out.rstrip("/") + "-src", "manifest.json")
    manifest = json.load(open(mf)) if os.path.exists(mf) else {}
    if manifest.get("version") != GEN_VERSION:
        manifest = {"version": GEN_VERSION, "made": {}}
    for name in names:
        spec = json.loads(json.dumps(VIDEOS[name]))
        if manifest["made"].get(name) == spec and os.path.exists(os.path.join(out, VIDEOS[name]["file"])):
            continue
        t = time.monotonic()
        make(name, out, np)
        manifest["made"][name] = spec
        json.dump(manifest, open(mf, "w"))
        print(f"made {VIDEOS[name]['file']} in {time.monotonic() - t:.1f} s", file=sys.stderr)


# --- the peer: one video, as a user writes it ---------------------------------------------------

def peer_one(path, fps):
    """ffmpeg samples FPS grey frames a second into a PGM pipe; zxing-cpp reads each; reads of
    the same (format, text) in consecutive frames merge into one span. Prints JSON."""
    import numpy as np
    import zxingcpp
    p = subprocess.Popen(["ffmpeg", "-nostdin", "-loglevel", "error", "-i", path, "-vf", f"fps={fps},format=gray",
                          "-f", "image2pipe", "-vcodec", "pgm", "-"], stdout=subprocess.PIPE)
    f = p.stdout
    spans, open_spans, i = [], {}, 0
    while True:
        magic = f.readline()
        if not magic:
            break
        dims = f.readline().split()
        while dims and dims[0].startswith(b"#"):
            dims = f.readline().split()
        w, h = int(dims[0]), int(dims[1])
        f.readline()  # maxval
        frame = np.frombuffer(f.read(w * h), np.uint8).reshape(h, w)
        t = i / fps
        seen = set()
        for r in zxingcpp.read_barcodes(frame):
            key = (ZX_NAMES.get(r.format.name, r.format.name), r.text)
            seen.add(key)
            if key in open_spans:
                open_spans[key][1] = t
            else:
                open_spans[key] = [t, t]
        for key in [k for k in open_spans if k not in seen]:
            spans.append((*key, *open_spans.pop(key)))
        i += 1
    spans += [(*k, *v) for k, v in open_spans.items()]
    p.wait()
    print(json.dumps({"path": path, "frames": i, "codes": [{"symbology": s, "text": t, "seconds": [a, b]} for s, t, a, b in spans]}))


# --- timing -------------------------------------------------------------------------------------

def steal_seconds():
    """CPU seconds this machine's hypervisor gave to other guests so far (/proc/stat), or 0."""
    try:
        with open("/proc/stat") as f:
            return int(f.readline().split()[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


class Monitor:
    """Samples this script's process tree (itself left out) every 50 ms while a reader runs: the
    peak of its summed VmRSS and VmHWM (kB), and per thread the CPU time it ran and the time it
    waited, runnable, for a CPU (/proc/PID/task/TID/schedstat), the last value seen of each."""

    def __init__(self):
        self.peak_rss = self.peak_hwm = 0
        self.sched = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *_):
        self.stop.set()
        self.thread.join()

    def loop(self):
        me = os.getpid()
        while not self.stop.is_set():
            kids = {}
            for d in os.listdir("/proc"):
                if d.isdigit():
                    try:
                        with open(f"/proc/{d}/stat") as f:
                            kids.setdefault(int(f.read().rsplit(")", 1)[1].split()[1]), []).append(int(d))
                    except (OSError, ValueError, IndexError):
                        pass
            rss = hwm = 0
            todo = list(kids.get(me, []))
            while todo:
                pid = todo.pop()
                todo += kids.get(pid, [])
                try:
                    with open(f"/proc/{pid}/status") as f:
                        for line in f:
                            if line.startswith("VmRSS:"):
                                rss += int(line.split()[1])
                            elif line.startswith("VmHWM:"):
                                hwm += int(line.split()[1])
                    for tid in os.listdir(f"/proc/{pid}/task"):
                        with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                            run, wait = f.read().split()[:2]
                        self.sched[(pid, tid)] = (int(run) / 1e9, int(wait) / 1e9)
                except OSError:
                    pass
            self.peak_rss, self.peak_hwm = max(self.peak_rss, rss), max(self.peak_hwm, hwm)
            self.stop.wait(0.05)

    def waited(self):
        return sum(w for _, w in self.sched.values())


def timed(cmd):
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True)
    wall = time.monotonic() - t0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return p.returncode, p.stdout, p.stderr, wall, (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime), None


def run_peer(paths, jobs, fps):
    """The peer over all videos, `jobs` process trees at a time; wall and CPU of the whole."""
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()

    def one(path):
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--peer-one", path, "--fps", str(fps)], capture_output=True)
        if p.returncode != 0:
            sys.exit(f"peer failed on {path}: {p.stderr.decode(errors='replace')[-400:]}")
        return json.loads(p.stdout)
    with Monitor() as m, ThreadPoolExecutor(jobs) as ex:
        results = list(ex.map(one, paths))
    wall = time.monotonic() - t0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {os.path.basename(r["path"]): r for r in results}, wall, (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime), m


def run_codesweep(binary, folder, jobs, extra):
    with Monitor() as m:
        rc, out, err, wall, cpu, _ = timed([binary, "scan", "-q", "--jobs", str(jobs), *extra, folder])
    if rc not in (0, 1):
        sys.exit(f"codesweep failed ({rc}): {err.decode(errors='replace')[-400:]}")
    recs = {}
    for line in out.decode().split("\n"):
        if line.strip():
            r = json.loads(line)
            codes = [{"symbology": c["symbology"],
                      "text": c.get("text") if c.get("text") is not None else base64.b64decode(c.get("bytes_b64", "")).decode("utf-8", "replace"),
                      "seconds": c.get("seconds") or [0, 0]} for c in r.get("codes", [])]
            recs[os.path.basename(r["path"])] = {"codes": codes, "video": r.get("video"), "error": r.get("error"),
                                                 "warnings": r.get("warnings", [])}
    return recs, wall, cpu, m


def overlaps(a, b, slack=0.0):
    return a[0] <= b[1] + slack and b[0] <= a[1] + slack


def fmt_spans(codes, sym, text):
    spans = [c["seconds"] for c in codes if c["symbology"] == sym and c["text"] == text]
    return ", ".join(f"{s[0]:.2f}-{s[1]:.2f}" for s in spans) if spans else "-"


def breakdown(a, names):
    """Per video, one process at a time, CPU seconds: codesweep in one process (--isolation none),
    whole and decoding alone (--video-fps 0.02: the same decoding, two samples read); the peer
    whole and its ffmpeg alone. What is left of each whole is reading the frames."""
    print(f"\nCPU seconds per video, one at a time (reading = whole - decoding):")
    print(f"  {'video':<8} {'cs whole':>8} {'cs decode':>9} {'cs read':>8} {'frames':>6} {'ms/frame':>8}   "
          f"{'peer whole':>10} {'ffmpeg':>7} {'zxing':>6} {'frames':>6} {'ms/frame':>8}   {'cs/peer':>7}")
    for n in names:
        v = os.path.join(a.out, VIDEOS[n]["file"])
        cs = [a.bin, "scan", "-q", "--isolation", "none"]
        _, out, _, _, whole, _ = timed(cs + [v])
        rec = json.loads(out.decode().split("\n")[0])
        _, _, _, _, dec, _ = timed(cs + ["--video-fps", "0.02", v])
        _, out, _, _, pwhole, _ = timed([sys.executable, os.path.abspath(__file__), "--peer-one", v, "--fps", str(a.fps)])
        pframes = json.loads(out)["frames"]
        _, _, _, _, ff, _ = timed(["ffmpeg", "-nostdin", "-loglevel", "error", "-i", v, "-vf", f"fps={a.fps:g},format=gray",
                                   "-f", "image2pipe", "-vcodec", "pgm", "-"])
        fr = rec["video"]["frames_read"]
        print(f"  {n:<8} {whole:8.2f} {dec:9.2f} {whole - dec:8.2f} {fr:6d} {1000 * (whole - dec) / max(fr, 1):8.0f}   "
              f"{pwhole:10.2f} {ff:7.2f} {pwhole - ff:6.2f} {pframes:6d} {1000 * (pwhole - ff) / max(pframes, 1):8.0f}   "
              f"{whole / pwhole:6.2f}x", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=".build/release/codesweep")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--peer-jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", default="bench-out/videos")
    ap.add_argument("--fps", type=float, default=4)
    ap.add_argument("--videos", default="ad,screen,lecture,phone")
    ap.add_argument("--codesweep-args", default="", help="extra arguments for codesweep scan, e.g. '--timings'")
    ap.add_argument("--no-breakdown", action="store_true", help="skip the per-video CPU breakdown after the rounds")
    ap.add_argument("--peer-one", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.peer_one:
        return peer_one(a.peer_one, a.fps)
    names = a.videos.split(",")
    generate(a.out, names)
    paths = [os.path.join(a.out, VIDEOS[n]["file"]) for n in names]
    peer_t, cs_t, peaks = [], [], []
    steal0, load0 = steal_seconds(), os.getloadavg()[0]
    peer_res = cs_res = None
    for r in range(a.rounds):  # interleaved, the peer first in even rounds
        order = ("peer", "cs") if r % 2 == 0 else ("cs", "peer")
        for who in order:
            if who == "peer":
                peer_res, w, c, m = run_peer(paths, a.peer_jobs, a.fps)
                peer_t.append((w, c, m.waited()))
            else:
                cs_res, w, c, m = run_codesweep(a.bin, a.out, a.jobs, a.codesweep_args.split())
                cs_t.append((w, c, m.waited()))
                peaks.append((m.peak_rss, m.peak_hwm))
        print(f"round {r + 1}: peer wall {peer_t[-1][0]:.1f} s cpu {peer_t[-1][1]:.1f} s (waited for a CPU {peer_t[-1][2]:.1f} s); "
              f"codesweep wall {cs_t[-1][0]:.1f} s cpu {cs_t[-1][1]:.1f} s (waited {cs_t[-1][2]:.1f} s), peak RSS "
              f"{peaks[-1][0] / 1024:.0f} MB (VmHWM summed {peaks[-1][1] / 1024:.0f} MB)", flush=True)

    all_found = True
    for n in names:
        spec, base = VIDEOS[n], VIDEOS[n]["file"]
        cs, pr = cs_res.get(base, {"codes": []}), peer_res[base]
        v = cs.get("video") or {}
        print(f"\n{n} ({base}): codesweep video {v.get('container')} {v.get('codec')} {v.get('width')}x{v.get('height')} "
              f"rotation {v.get('rotation')} duration {v.get('duration')} s, samples {v.get('samples')}, frames_read "
              f"{v.get('frames_read')}; peer frames {pr['frames']}" + (f"; error {cs['error']}" if cs.get("error") else "")
              + (f"; warnings {cs['warnings']}" if cs.get("warnings") else ""))
        print(f"  {'symbology':<9} {'payload':<46} {'truth':>13}  {'peer spans':<24} {'codesweep spans':<24}")
        truth_keys = set()
        for sym, text, t0, t1, _ in spec["codes"]:
            truth_keys.add((sym, text))
            print(f"  {sym:<9} {text[:46]:<46} {t0:6.2f}-{t1:<6.2f}  {fmt_spans(pr['codes'], sym, text):<24} "
                  f"{fmt_spans(cs['codes'], sym, text):<24}")
        extra = {(c["symbology"], c["text"]) for c in pr["codes"] + cs["codes"]} - truth_keys
        for sym, text in sorted(extra):
            print(f"  {sym:<9} {text[:46]:<46} {'NOT ON SCREEN':>13}  {fmt_spans(pr['codes'], sym, text):<24} "
                  f"{fmt_spans(cs['codes'], sym, text):<24}")
        missed = [c for c in pr["codes"]
                  if not any(d["symbology"] == c["symbology"] and d["text"] == c["text"] and overlaps(d["seconds"], c["seconds"])
                             for d in cs["codes"])]
        all_found &= not missed
        print("  codesweep finds every code the peer finds, with an overlapping span: "
              + ("yes" if not missed else "NO, missed: " + "; ".join(f"{c['symbology']} {c['text']!r} {c['seconds']}" for c in missed)))
    med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
    pw, pc, pq = (med([t[k] for t in peer_t]) for k in range(3))
    cw, cc, cq = (med([t[k] for t in cs_t]) for k in range(3))
    ratio_w = med([c[0] / p[0] for c, p in zip(cs_t, peer_t)])
    ratio_c = med([c[1] / p[1] for c, p in zip(cs_t, peer_t)])
    peak = max(p[0] for p in peaks) / 1024
    print(f"\nmedian of {a.rounds} interleaved rounds: peer (ffmpeg fps={a.fps:g} + zxing-cpp, {a.peer_jobs} videos at a time) "
          f"wall {pw:.1f} s, cpu {pc:.1f} s, waited for a CPU {pq:.1f} s; codesweep --jobs {a.jobs} wall {cw:.1f} s, "
          f"cpu {cc:.1f} s, waited {cq:.1f} s (threads' run-queue time, /proc schedstat)")
    print(f"codesweep / peer: wall {ratio_w:.2f}x, cpu {ratio_c:.2f}x (target <= 1.0x, aim 0.5x)"
          f"{'' if ratio_w <= 1.0 else '  MISSED'}")
    print(f"codesweep peak RSS (process tree, VmRSS summed, 50 ms samples): {peak:.0f} MB, summed VmHWM "
          f"{max(p[1] for p in peaks) / 1024:.0f} MB (target <= 512 MB){'' if peak <= 512 else '  MISSED'}")
    print(f"every code the peer finds, with its span: {'yes' if all_found else 'NO'}")
    if not a.no_breakdown:
        breakdown(a, names)
    print(f"machine: load average {load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end (2 cores: above 2, other work "
          f"shared them); CPU time stolen by other guests during the run: {steal_seconds() - steal0:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
