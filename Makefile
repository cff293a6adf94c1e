# The two commands the README gives: `make demo` and `make test`. Both install what they need.
SWIFT ?= swift
BIN = .build/release/codesweep

.PHONY: deps build release dist dist-check image demo test test-quick test-times lint check-library check-slurm bench bench-soak bench-recall bench-hostile bench-boofcv bench-fake-qr bench-qr-details bench-ean-photos bench-walk bench-containers bench-generate bench-documents bench-screenshots bench-videos samples-generate clean

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product codesweep

# Scan the bundled samples and print one JSON record per file (exit 1: Samples/ holds a corrupt file on purpose).
demo: release
	$(BIN) scan Samples; status=$$?; echo "codesweep exit status: $$status (1 = some files failed, as expected for Samples/corrupt.jpg)" >&2; test $$status -le 1

# Both test targets, CodeSweepUnitTests and CodeSweepIntegrationTests. The tests also need PyPI's
# jsonschema (scripts/validate-schema.py checks the JSON output).
test:
	@bash scripts/install-deps.sh --tests
	$(SWIFT) build --build-tests
	python3 scripts/run-tests.py --shards 2 $(SWIFT)

# The unit test target only, Tests/UnitTests (pure Swift modules: no C library but libcrypto's digests, no external tool,
# no process): value types, the QR symbol, globs, FileIO, the texture probe, the plan executor with
# a recording decoder. Its target cannot reach the bridges, so what runs here is what the target
# holds, not a list kept by hand. `make test` runs everything.
test-quick: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter 'CodeSweepUnitTests\.'

# The whole suite one test at a time (swift-testing runs tests side by side, and a test's time
# then counts the others'; SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=1 runs them one by one),
# then its slowest tests and suites (scripts/test-times.py). Takes the sum of the tests' times, about
# twice `make test`'s; the output is kept in .build/test-times.log.
test-times:
	@bash scripts/install-deps.sh --tests
	$(SWIFT) build --build-tests
	bash -o pipefail -c 'SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=1 $(SWIFT) test --skip-build 2>&1 | tee .build/test-times.log | python3 scripts/test-times.py --top 30 | tail -n 75'

# Style gate (CI runs it before the tests): `swift format lint --strict` with the checked-in
# .swift-format, then the size rules (no Sources file over 350 lines, no function over 80:
# scripts/check-sizes.py), then each target's declared dependencies against its imports
# (scripts/check-deps.py). `swift format format -i -r --parallel Sources Tests Package.swift` fixes
# what the formatter can; the sizes are fixed by hand.
lint:
	$(SWIFT) format lint --strict -r --parallel Sources Tests Package.swift
	python3 scripts/check-sizes.py Sources
	python3 scripts/check-deps.py

# The library product from outside: Tests/LibraryClient is a package of its own that depends on
# this one by path, so it compiles against the public API only (everything else is `package`); it
# scans two samples and must print their codes. CI runs it after the tests.
check-library: deps
	cd Tests/LibraryClient && $(SWIFT) build
	Tests/LibraryClient/.build/debug/LibraryClient Samples/qr-photo.jpg Samples/screenshot.png > .build/library-client.txt
	cat .build/library-client.txt
	grep -qxF 'Samples/qr-photo.jpg: qr https://example.com/codesweep/photo [1012,392 1244,392 1244,623 1011,623]' .build/library-client.txt
	grep -qxF 'Samples/screenshot.png: code128 INV-2024-000172 [740,380 1095,380 1095,459 740,459]' .build/library-client.txt
	grep -qxF 'blank: 0 codes' .build/library-client.txt

# The Slurm recipe of docs/forensics.md (examples/slurm/sweep.sbatch + merge.sbatch) run as written
# on a real one-node Slurm (root only: installs slurmctld, slurmd, slurm-client and munge when
# missing, starts them in a temporary folder, stops them by pid on exit): the merged report must be
# byte for byte a single scan's, also with a task cancelled part-way and re-submitted. CI runs it
# after the tests when it runs as root, with the debug binary they built (the release one takes a
# build of its own; the sweep takes seconds either way): `make release check-slurm
# BIN_SLURM=.build/release/codesweep` for that.
# Prints the shards, files, seconds per run.
BIN_SLURM ?= .build/debug/codesweep
check-slurm: build
	BIN=$(BIN_SLURM) bash scripts/check-slurm.sh

# Recall benchmark: builds release, generates (seeded, cached) the hard set into bench-out/, scans it
# and the shared zxing-cpp corpus with codesweep at each effort level and with zbarimg, prints tables;
# then the corpus again beside zxing-cpp 3.1 from PyPI, timed in the same run (bench/corpus_vs_zxing.py:
# per family, totals, false positives, wall and CPU x zxing-cpp; pip install 'zxing-cpp==3.1.*' pillow);
# then a held-out batch of 24 camera-like shots of small QR codes (bench/camera_batch.py).
bench-recall: release
	python3 bench/recall.py --jobs 2
	python3 bench/corpus_vs_zxing.py --bin $(BIN) --jobs 2 --efforts fast,normal --rounds 3
	python3 bench/camera_batch.py --bin $(BIN)

# Peak memory of sweeps over 2,000 and 200,000 empty files: the streamed walk keeps it flat.
# Documents (issue 41): pages/s and peak RSS on a generated set of PDFs and SVGs (bench/documents.py),
# beside pdftoppm -r 300 + zxing-cpp 3.1 (pip install 'zxing-cpp==3.1.*' pillow) timed in the same
# run, and zbarimg's result on the same files.
bench-documents: release
	python3 bench/documents.py --bin $(BIN) --jobs 2

bench-walk: release
	python3 bench/walk_memory.py --bin $(BIN)

# Containers read in place (issue 60; bench/containers.py, prints figures): 500 pictures of the shared
# zxing-cpp corpus (../shared/corpus/zxing-cpp) in one ZIP (stored and deflated) against the same
# pictures loose, --jobs 2, default effort, timed in the same run (median of 3 interleaved rounds,
# wall and CPU, the ratio to loose; target <= 1.1x) and the codes read compared picture by picture;
# then the peak RSS of the coordinator and its worker over ZIPs of 2,000 and 200,000 tiny members
# (100-byte text, every 1,000th a QR code PNG; target: within 64 MB). Needs qrencode. The pictures
# and ZIPs are cached in bench-out/containers. CONTAINERS_ARGS="--parts zip" or "--parts memory" for one.
CONTAINERS_ARGS ?=
bench-containers: release
	python3 bench/containers.py --bin $(BIN) --jobs 2 $(CONTAINERS_ARGS)

# QR recall on real phone photos: the shared BoofCV set (../shared/corpus/boofcv-dev, 652 labelled
# codes in 16 categories), codesweep at each of BOOFCV_EFFORTS against zxing-cpp 3.1 (pip install
# "zxing-cpp==3.1.*" pillow), both run and timed in this run with 2 jobs, like with like: every
# symbology (codesweep's default against zxing-cpp's default formats) and QR only (--symbologies qr
# against formats=QRCode; BOOFCV_ARGS="--configs all" for one): per-category table, then per
# configuration found, %, extras, wall and CPU seconds and wall x zxing-cpp per effort, and per image whether each
# effort found at least what the one below it found (thorough >= normal). Prints figures; exit 2
# without the set. BOOFCV_EFFORTS=normal is quicker (thorough alone is several minutes);
# BOOFCV_ARGS="--categories lots,nominal" or "--images 40" for a subset, "--peer-cached" to reuse
# zxing-cpp's last run. Then what the QR locator costs per photo at the view it works on
# (bench/locator_cost.py: median, p90, max per view size, one job).
BOOFCV_EFFORTS ?= fast,normal,thorough
BOOFCV_ARGS ?=
bench-boofcv: release
	python3 bench/boofcv.py --bin $(BIN) --jobs 2 --efforts $(BOOFCV_EFFORTS) $(BOOFCV_ARGS)
	python3 bench/locator_cost.py --bin $(BIN)

# Fake QR codes: real finder, timing and alignment patterns, random modules and format bits;
# FAKE_QR_COUNT seeded images (bench/fake_qr.py: numpy + Pillow, cached in bench-out/fake-qr; PNG and
# JPEG, rotated, warped, several an image), scanned by codesweep at each of FAKE_QR_EFFORTS and by
# zxing-cpp 3.1. Every code read is a false read (prints figures; the goal is 0). The control: the
# first FAKE_QR_CONTROL images drawn the same way with real codes (qrencode), and how many each reads.
FAKE_QR_COUNT ?= 200
FAKE_QR_EFFORTS ?= fast,normal,thorough
FAKE_QR_CONTROL ?= 20
bench-fake-qr: release
	python3 bench/fake_qr.py --bin $(BIN) --jobs 2 --count $(FAKE_QR_COUNT) --efforts $(FAKE_QR_EFFORTS) --control $(FAKE_QR_CONTROL)

# QR details (issue 39): 160 QR codes of segno's, versions 1-40 at every EC level, 4-6 px a module,
# some mirrored, turned or tilted (bench/qr_details.py: segno + numpy + Pillow, cached in
# bench-out/qr-details with the truth); prints per effort the codes read and how many carry the right
# version, EC level, mask, mirroring and payload, every mismatch listed; zxing-cpp 3.1 beside.
QR_DETAILS_EFFORTS ?= fast,normal
bench-qr-details: release
	python3 bench/qr_details.py --bin $(BIN) --jobs 2 --efforts $(QR_DETAILS_EFFORTS)

# EAN/UPC on 12 MP product photos (issue 39): 40 photos with an EAN-13, EAN-8, UPC-A or UPC-E (zint)
# on a label over a background cut from the BoofCV corpus (../shared; synthetic without it), text and
# stripe patches, tilted, blurred, JPEG 80-90, and 10 negatives (bench/ean_photos.py: numpy + Pillow,
# cached in bench-out/ean-photos). Prints codes right, missed and every WRONG read (checksum-valid but
# not on the photo: the goal is 0) per effort, zxing-cpp 3.1 beside.
EAN_PHOTOS_EFFORTS ?= fast,normal,thorough
bench-ean-photos: release
	python3 bench/ean_photos.py --bin $(BIN) --jobs 2 --efforts $(EAN_PHOTOS_EFFORTS)

# Screenshots (issue 48): SCREENSHOT_PAGES web pages (articles, chats, sign-in, tickets, shops, payments) rendered by
# Debian's headless Chromium at phone 1170x2532, laptop 1280x800 and desktop 2880x1800, light and dark, most without
# a code; 184 codes at page sizes (QR incl. Wi-Fi, otpauth and EPC payloads, Micro QR, rMQR, Data Matrix square and
# rectangular, Aztec, PDF417, EAN-13, Code 128). bench/screenshot_pages.py makes them (seeded; cached in
# bench-out/screenshots with truth.json); bench/screenshots.py reads them with codesweep at each of SCREENSHOT_EFFORTS,
# zxing-cpp 3.1 (pip install 'zxing-cpp==3.1.*' pillow segno) and zbarimg, 2 processes against --jobs 2, and prints
# codes read, false reads, wall and CPU time, wall x zxing-cpp's, and read/total per symbology and reader.
# Any binary: python3 bench/screenshots.py --bin PATH.
SCREENSHOT_EFFORTS ?= fast,normal
SCREENSHOT_PAGES ?= 360
bench-screenshots: release
	python3 bench/screenshots.py --bin $(BIN) --jobs 2 --efforts $(SCREENSHOT_EFFORTS) --pages $(SCREENSHOT_PAGES)

# Videos (issue 61): four videos of our own made with Debian's ffmpeg CLI (bench/videos.py: a 1080p H.264
# ad with a QR end card, a 720p screen recording with 3 codes for 1-5 s, a 5-minute 360p VP9 lecture
# with 5 codes, one for 0.6 s, an HEVC phone clip in portrait (rotate=90); cached in bench-out/videos
# with the ground truth in the script), `codesweep scan --jobs 2` against ffmpeg -vf fps=4 piped into
# zxing-cpp 3.1 (pip install 'zxing-cpp==3.1.*' numpy), two videos at a time, VIDEO_ROUNDS rounds
# interleaved: per video each reader's codes and spans against the truth, the median wall and CPU,
# codesweep/peer and codesweep's peak RSS. Prints figures.
VIDEO_ROUNDS ?= 3
bench-videos: release
	python3 bench/videos.py --bin $(BIN) --jobs 2 --peer-jobs 2 --rounds $(VIDEO_ROUNDS)

clean:
	rm -rf .build .build-dist dist Sources/Commands/DistVersion.generated.swift

# Release packages for Debian 12 x86_64 (Swift runtime linked in; see README "Install"):
# dist/codesweep-VERSION-linux-x86_64.tar.gz and dist/codesweep_VERSION_amd64.deb, VERSION from
# `git describe` (scripts/version.sh). Its own scratch path, .build-dist. Prints the .deb's Depends: and size.
dist: deps
	SWIFT="$(SWIFT)" bash scripts/dist.sh

# Proves dist/ on a clean Debian 12 root without Swift (debootstrap minbase + chroot; root only):
# installs the .deb with apt-get, runs --version, scan Samples (against Samples/expected.jsonl),
# check, generate, man, the completions and the tarball's binary. Exit 1 on any failure.
dist-check:
	bash scripts/dist-check.sh

# The container image (Containerfile: debian:12-slim + the .deb from `make dist`), tagged
# codesweep:VERSION. CONTAINER=docker for Docker. Not built on the development machine (no engine there).
CONTAINER ?= podman
image:
	@deb=codesweep_$$(scripts/version.sh --deb)_amd64.deb; test -f dist/$$deb || { echo "no dist/$$deb: run make dist first" >&2; exit 1; }; \
	echo "$(CONTAINER) build -f Containerfile --build-arg DEB=$$deb -t codesweep:$$(scripts/version.sh) ."; \
	$(CONTAINER) build -f Containerfile --build-arg DEB=$$deb -t codesweep:$$(scripts/version.sh) .

# Throughput and memory against zbarimg on a generated photo-library-like set (prints figures):
# the set as it is, then BENCH_TEXTURED textured negatives (text, grids, walls, fabric, foliage,
# facades, finder-like squares, checkerboards; no codes) alone and added to it (0: the set only).
# BENCH_EFFORTS=fast,normal,thorough adds thorough (about 4 minutes more).
BENCH_COUNT ?= 60
BENCH_TEXTURED ?= 20
BENCH_EFFORTS ?= fast,normal
bench: release
	python3 bench/throughput/make_photolib.py bench-out/photolib --count $(BENCH_COUNT) --textured $(BENCH_TEXTURED)
	python3 bench/throughput/run.py $(BIN) bench-out/photolib --jobs 2 --efforts $(BENCH_EFFORTS) --isolation process,none --out bench-out/throughput $(if $(filter-out 0,$(BENCH_TEXTURED)),--textured bench-out/photolib-textured)

# Memory over a long run: SOAK_COUNT hard links to the benchmark set in one sweep; RSS after
# 1,000 records against RSS at the end (prints figures).
SOAK_COUNT ?= 10000
SOAK_EFFORT ?= normal
bench-soak: release
	python3 bench/throughput/make_photolib.py bench-out/photolib --count $(BENCH_COUNT)
	python3 bench/throughput/soak.py $(BIN) bench-out/photolib --count $(SOAK_COUNT) --effort $(SOAK_EFFORT) --jobs 2 --out bench-out/soak

# Hostile corpus + 2,000 mutated images: no crash or hang of the sweep, a record for every file.
bench-hostile: release
	python3 bench/hostile/run.py $(BIN) bench-out/hostile --mutations 2000

# `codesweep generate`: make and verify GENERATE_COUNT codes in one batch (release build, 2 jobs),
# print the wall time (goal: 1,000 codes in under 20 s on 2 cores).
GENERATE_COUNT ?= 1000
bench-generate: release
	python3 bench/generate_bench.py --bin $(BIN) --count $(GENERATE_COUNT) --jobs 2

# Samples/generate/: the generated campaign set (and its lines in Samples/expected.jsonl).
samples-generate: release
	bash scripts/make-generate-samples.sh
