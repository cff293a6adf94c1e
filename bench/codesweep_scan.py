"""One codesweep scan of a folder for the bench scripts (`qr_details.py`, `ean_photos.py`):
`scan -q --effort E --jobs J FOLDER`, timed; exits naming the effort when codesweep fails
(exit other than 0 or 1)."""
import json, os, subprocess, sys, time


def scan_folder(binary, effort, folder, jobs):
    """The codes of each file (the record's `codes`, by file name) and the wall seconds."""
    t = time.monotonic()
    p = subprocess.run([binary, "scan", "-q", "--effort", effort, "--jobs", str(jobs), folder], capture_output=True)
    dt = time.monotonic() - t
    if p.returncode not in (0, 1):
        sys.exit(f"codesweep --effort {effort} failed ({p.returncode}): {p.stderr.decode(errors='replace')[:400]}")
    got = {}
    for line in p.stdout.decode().split("\n"):
        if line.strip():
            r = json.loads(line)
            got[os.path.basename(r["path"])] = r.get("codes", [])
    return got, dt
