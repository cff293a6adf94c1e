# The two commands the README gives: `make demo` and `make test`. Both install what they need.
SWIFT ?= swift
BIN = .build/release/codesweep

.PHONY: deps build release demo test bench bench-recall clean

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Scan the bundled samples and print one JSON record per file (exit 1: Samples/ holds a corrupt file on purpose).
demo: release
	$(BIN) scan Samples; status=$$?; echo "codesweep exit status: $$status (1 = some files failed, as expected for Samples/corrupt.jpg)" >&2; test $$status -le 1

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Recall benchmark: builds release, generates (seeded, cached) the hard set into bench-out/, scans it
# and the shared zxing-cpp corpus with codesweep at each effort level and with zbarimg, prints tables.
bench-recall: release
	python3 bench/recall.py --jobs 2

clean:
	rm -rf .build
