# RxAnatomy — the two commands a newcomer needs are `make demo` and `make test`.
# Both install what is missing (Graphviz's C library) before building.

SWIFT ?= swift
SWIFT_BUILD_FLAGS ?=
# Tests run one at a time: every test checks the process-wide live-object counts.
SWIFT_TEST_FLAGS ?= --no-parallel

.PHONY: demo test deps build release tsan bench clean

## Install what the build needs (libgraphviz-dev), only when it is missing.
deps:
	@if ! pkg-config --exists libgvc 2>/dev/null; then \
		echo "==> installing libgraphviz-dev (Graphviz's C library, linked in-process)"; \
		if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq libgraphviz-dev pkg-config >/dev/null || \
		{ echo "error: could not install libgraphviz-dev (apt-get failed)" >&2; exit 2; }; \
	fi

build: deps
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)

## Build and run the subscribe-flow lesson (001's step1…step9).
demo: deps
	$(SWIFT) build $(SWIFT_BUILD_FLAGS) --product chapter02
	@echo "=== 02 Anatomy of a subscription"
	@$$($(SWIFT) build $(SWIFT_BUILD_FLAGS) --show-bin-path)/chapter02

## Every test: unit, virtual-time, trace, rendering, CLI and chapter transcripts.
test: deps
	$(SWIFT) build $(SWIFT_BUILD_FLAGS) --build-tests
	$(SWIFT) test $(SWIFT_BUILD_FLAGS) $(SWIFT_TEST_FLAGS) --skip-build

release: deps
	$(SWIFT) build -c release $(SWIFT_BUILD_FLAGS)

clean:
	rm -rf .build

## Benchmarks (release, their own package under Benchmarks/).
bench: deps
	cd Benchmarks && $(SWIFT) run -c release CoreBench

# --- chapters (make chapter N=02, make chapters, make diagrams) ---

# --- thread sanitizer (make tsan) ---
## Concurrency stress tests under ThreadSanitizer (its own build folder: TSan objects differ).
## Mutex-guarded code is suppressed: TSan cannot see Synchronization.Mutex on Linux (see the file).
TSAN_SCRATCH ?= .build-tsan
tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path $(TSAN_SCRATCH)
	TSAN_OPTIONS="suppressions=$(CURDIR)/Tests/tsan-suppressions.txt $$TSAN_OPTIONS" \
		$(SWIFT) test --skip-build --sanitize=thread --scratch-path $(TSAN_SCRATCH) --no-parallel --filter Stress
