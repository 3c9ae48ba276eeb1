# swift-foundation-models — the two commands a new machine needs:
#   make demo   set up, then run a short tour on the embedded default model
#   make test   set up, then run every test
SWIFT ?= swift

.PHONY: setup build demo test bench clean

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build

demo: setup
	$(SWIFT) run fm availability || true

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: setup
	@echo "benchmarks arrive with the on-device model (issue 3)"

clean:
	rm -rf .build
