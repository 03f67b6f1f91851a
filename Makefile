# RxAnatomy — the two commands a newcomer needs are `make demo` and `make test`.
# Both install what is missing (Graphviz's C library) before building.

SWIFT ?= swift
SWIFT_BUILD_FLAGS ?=
# Tests run one at a time: every test checks the process-wide live-object counts.
SWIFT_TEST_FLAGS ?= --no-parallel

.PHONY: demo test deps build release tsan bench clean format lint property asan fuzz soak examples install install-bin
.PHONY: browser-deps test-browser bench-report otel-e2e otel-deps
.PHONY: bench-check bench-thresholds bench-deps bench-build bench-bytes

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

## Build and run the subscribe-flow lesson (001's step1…step9), then draw that very run.
DEMO_DIR ?= out/demo
demo: deps
	$(SWIFT) build $(SWIFT_BUILD_FLAGS) --product chapter02
	$(SWIFT) build $(SWIFT_BUILD_FLAGS) --product rxtrace
	@mkdir -p $(DEMO_DIR)
	@bin="$$($(SWIFT) build $(SWIFT_BUILD_FLAGS) --show-bin-path)"; \
	echo "=== $$(head -1 Chapters/02-AnatomyOfASubscription/README.md | sed 's/^# //')"; \
	"$$bin/chapter02" --diagrams $(DEMO_DIR) && \
	"$$bin/rxtrace" render $(DEMO_DIR)/mojito.trace.json --view graph -o $(DEMO_DIR)/graph.svg && \
	"$$bin/rxtrace" render $(DEMO_DIR)/mojito.trace.json --view flow -o $(DEMO_DIR)/flow.svg && \
	"$$bin/rxtrace" report $(DEMO_DIR)/mojito.trace.json -o $(DEMO_DIR)/report.html && \
	echo && echo "==> that run, replayed call by call (open it in a browser): $(DEMO_DIR)/report.html" && \
	echo "==> the subscription graph of that run: $(DEMO_DIR)/graph.svg" && \
	echo "==> its numbered calls (step1…step9):    $(DEMO_DIR)/flow.svg" && \
	echo "==> every diagram of the chapter:         $(DEMO_DIR)/" && \
	echo "==> rxtrace above is a debug build in $$bin; make install puts a release build on the PATH"

## Every test: unit, virtual-time, trace, rendering, CLI, the report in a real browser and chapter
## transcripts (and the format check).
test: deps lint browser-deps
	$(SWIFT) build $(SWIFT_BUILD_FLAGS) --build-tests
	RXANATOMY_BROWSER_TEST=1 $(SWIFT) test $(SWIFT_BUILD_FLAGS) $(SWIFT_TEST_FLAGS) --skip-build
	@$(MAKE) --no-print-directory examples

## Examples/: a package written for RxSwift 6 (`import RxSwift`, `import RxTest`), built and
## tested against this checkout's drop-in modules. Its own build folder: it is another package.
examples:
	$(SWIFT) build --package-path Examples --build-tests
	$(SWIFT) test --package-path Examples --skip-build

## RxDistributedTracing end to end (not in `make test`: swift-otel takes about seven minutes to
## build on two cores): OTelE2E/, a package of its own, exports spans with swift-otel over
## OTLP/HTTP to a receiver its test starts on loopback (OTelE2E/receiver.py) and reads them back.
## The receiver runs on $(PYTHON) when it has opentelemetry-proto, else in the venv otel-deps makes.
OTEL_VENV := $(CURDIR)/OTelE2E/.build/receiver-venv
OTEL_PROTO_IMPORT := import opentelemetry.proto.collector.trace.v1.trace_service_pb2
otel-e2e: otel-deps
	@# As for bench: SwiftPM does not see files added to RxAnatomy in an existing build folder.
	@rm -f OTelE2E/.build/debug.yaml OTelE2E/.build/*/debug/description.json
	$(SWIFT) build --package-path OTelE2E --build-tests
	@python=$(PYTHON); $(PYTHON) -c "$(OTEL_PROTO_IMPORT)" 2>/dev/null || python=$(OTEL_VENV)/bin/python3; \
		echo "RXANATOMY_OTEL_PYTHON=$$python $(SWIFT) test --package-path OTelE2E --skip-build"; \
		RXANATOMY_OTEL_PYTHON=$$python $(SWIFT) test --package-path OTelE2E --skip-build

## What the end-to-end receiver needs, only when missing: python3 with PyPI's opentelemetry-proto
## (which brings protobuf). Installed into a venv of its own (Debian's python3 refuses a plain
## `pip install`), with Debian's python3 and python3-venv first when they are missing.
otel-deps:
	@if $(PYTHON) -c "$(OTEL_PROTO_IMPORT)" 2>/dev/null; then exit 0; fi; \
	if $(OTEL_VENV)/bin/python3 -c "$(OTEL_PROTO_IMPORT)" 2>/dev/null; then exit 0; fi; \
	if ! command -v $(PYTHON) >/dev/null 2>&1 || ! $(PYTHON) -c "import ensurepip, venv" 2>/dev/null; then \
		echo "==> installing python3 and python3-venv (the OTLP receiver of make otel-e2e)"; \
		if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq python3 python3-venv >/dev/null || \
		{ echo "error: make otel-e2e needs python3 with venv; could not install python3-venv (apt-get failed)" >&2; \
		exit 2; }; \
	fi; \
	echo "==> installing opentelemetry-proto into $(OTEL_VENV) (the OTLP receiver of make otel-e2e)"; \
	rm -rf $(OTEL_VENV) && $(PYTHON) -m venv $(OTEL_VENV) && \
	$(OTEL_VENV)/bin/python3 -m pip install -q --disable-pip-version-check "opentelemetry-proto>=1.20,<2" && \
	$(OTEL_VENV)/bin/python3 -c "$(OTEL_PROTO_IMPORT)" || \
	{ echo "error: make otel-e2e could not install opentelemetry-proto into $(OTEL_VENV) (pip failed)" >&2; exit 2; }

## What the report's browser test needs, only when missing: Debian's chromium and chromium-driver
## (about two minutes to install on a fresh machine), and Selenium for python3 from PyPI.
PYTHON ?= python3
browser-deps:
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then \
		echo "==> installing chromium and chromium-driver (the browser test of rxtrace report)"; \
		if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null || \
		{ echo "error: could not install chromium and chromium-driver (apt-get failed)" >&2; exit 2; }; \
	fi
	@if ! $(PYTHON) -c "import selenium" 2>/dev/null; then \
		echo "==> installing selenium for $(PYTHON) (the browser test of rxtrace report)"; \
		$(PYTHON) -m pip install -q --disable-pip-version-check "selenium>=4.20,<5" || \
		{ echo "error: could not install selenium (pip failed)" >&2; exit 2; }; \
	fi

## Only the browser test of `rxtrace report` (headless Chromium; screenshots in out/browser-test/).
test-browser: deps browser-deps
	$(SWIFT) build $(SWIFT_BUILD_FLAGS) --build-tests
	RXANATOMY_BROWSER_TEST=1 $(SWIFT) test $(SWIFT_BUILD_FLAGS) $(SWIFT_TEST_FLAGS) --skip-build \
		--filter ReportBrowserTests

## Formatting: `swift format` (in the toolchain) with the configuration in .swift-format (120 columns).
FORMAT_PATHS := Package.swift Sources Tests Chapters Benchmarks/Package.swift Benchmarks/Sources Benchmarks/Core \
	Examples/Package.swift Examples/Sources Examples/Tests Fuzz/Package.swift Fuzz/Sources OTelE2E/Package.swift \
	OTelE2E/Tests
format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMAT_PATHS)

## Fails when a file is not formatted as `make format` would write it.
lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_PATHS)

release: deps
	$(SWIFT) build -c release $(SWIFT_BUILD_FLAGS)

## Build rxtrace in release and put it in $(PREFIX)/bin (default /usr/local; PREFIX=$$HOME/.local
## needs no root; DESTDIR for packaging). It needs nothing beside it but Graphviz's libraries.
PREFIX ?= /usr/local
install: deps
	$(SWIFT) build -c release $(SWIFT_BUILD_FLAGS) --product rxtrace
	@$(MAKE) --no-print-directory install-bin \
		RXTRACE_BIN="$$($(SWIFT) build -c release $(SWIFT_BUILD_FLAGS) --show-bin-path)/rxtrace"

## The copy step of install, for a binary built already (RXTRACE_BIN).
install-bin:
	@test -x "$(RXTRACE_BIN)" || { echo "error: no rxtrace binary at '$(RXTRACE_BIN)'" >&2; exit 2; }
	@mkdir -p "$(DESTDIR)$(PREFIX)/bin" && install -m 755 "$(RXTRACE_BIN)" "$(DESTDIR)$(PREFIX)/bin/rxtrace"
	@echo "==> installed $(DESTDIR)$(PREFIX)/bin/rxtrace"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; \
		*) echo "==> $(PREFIX)/bin is not on your PATH; add it: export PATH=\"$(PREFIX)/bin:\$$PATH\"" ;; esac

clean:
	rm -rf .build Examples/.build OTelE2E/.build

## Benchmarks (release, their own package under Benchmarks/; docs/performance.md says what each
## measures). First the package-benchmark suite (Benchmarks/Core): RxCore beside OpenCombine,
## time, malloc counts, memory, callgrind's instructions, bytes per live subscription, RXTRACE's
## cost. Then what it cannot measure: tracing off against a build with the hooks compiled out and
## the traced multi-threaded program (TraceBench), rendering, reading large traces.
## BENCH_FILTER='subscribe.*' runs only the suite's benchmarks whose names match (a regex).
BENCH_SWIFT_PACKAGE = cd Benchmarks && $(SWIFT) package --disable-sandbox
BENCH_FILTER_FLAG = $(if $(BENCH_FILTER),--filter '$(BENCH_FILTER)')
bench: deps bench-deps bench-build
	$(BENCH_SWIFT_PACKAGE) benchmark --no-progress $(BENCH_FILTER_FLAG)
	cd Benchmarks && RXANATOMY_NO_TRACE=1 $(SWIFT) build -c release --product TraceBench --scratch-path .build-notrace
	cd Benchmarks && .build/release/TraceBench --baseline .build-notrace/release/TraceBench
	cd Benchmarks && .build/release/TraceBench --threaded
	cd Benchmarks && .build/release/RenderBench
	@# ReadBench compares `rxtrace summary` with python3's json.load when a release rxtrace is built.
	cd Benchmarks && .build/release/ReadBench $$(test -x ../.build/release/rxtrace && echo --rxtrace ../.build/release/rxtrace)

## Runs the package-benchmark suite and compares it with the thresholds in Benchmarks/Thresholds/
## (each metric's tolerance is in Benchmarks/Core/Core.swift): fails on a regression, printing the
## figure. Counts are held tightly (instructions, mallocs, trace records), times only as ratios.
bench-check: deps bench-deps bench-build
	@# The plugin ends with status 1 whatever went wrong; its last error line says what.
	@cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark thresholds check --no-progress \
		$(BENCH_FILTER_FLAG) 2>.build/bench-check.err; \
	status=$$?; cat .build/bench-check.err >&2; \
	if [ $$status -eq 0 ]; then echo "==> bench-check passed"; \
	elif grep -q benchmarkThresholdRegression .build/bench-check.err; then \
		echo "error: bench-check failed: the figures above regressed past their thresholds" >&2; exit 1; \
	elif grep -q benchmarkThresholdImprovement .build/bench-check.err; then \
		echo "==> bench-check passed: no regression; some figures improved beyond their tolerance" \
			"(make bench-thresholds records them)"; \
	else echo "error: bench-check could not run the benchmarks (status $$status)" >&2; exit 1; fi

## Bytes and heap blocks per live `subject → map → filter → map → subscribe`, RxCore beside
## OpenCombine, at N = 10⁴, 10⁵ and 10⁶ (BYTES_N="…" for others): Probe's `bytes` (resident
## growth and malloc's bytes in use, each in a process of its own; blocks counted by DHAT).
BYTES_N ?= 10000 100000 1000000
bench-bytes: deps bench-deps bench-build
	cd Benchmarks && .build/release/Probe bytes $(BYTES_N)

## Writes Benchmarks/Thresholds/ from a new run: the p90 of each checked metric (absolute times,
## throughput, peak memory and perf's instructions are left out: they move with the machine).
bench-thresholds: deps bench-deps bench-build
	rm -rf Benchmarks/Thresholds
	$(BENCH_SWIFT_PACKAGE) --allow-writing-to-package-directory benchmark thresholds update --no-progress
	$(PYTHON) Benchmarks/prune-thresholds.py Benchmarks/Thresholds

## What the benchmarks need beyond the toolchain: valgrind (callgrind counts instructions) and
## binutils' strip, installed when missing.
bench-deps:
	@if ! command -v valgrind >/dev/null 2>&1 || ! command -v strip >/dev/null 2>&1; then \
		echo "==> installing valgrind and binutils (the benchmarks count instructions with callgrind)"; \
		if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq valgrind binutils >/dev/null || \
		{ echo "error: could not install valgrind (apt-get failed)" >&2; exit 2; }; \
	fi

## The benchmarks' release build. SwiftPM does not notice files added to a path dependency
## (RxAnatomy itself, after a pull) in an existing build folder; dropping the build plans makes it
## look again.
bench-build:
	@rm -f Benchmarks/.build/release.yaml Benchmarks/.build/*/release/description.json \
		Benchmarks/.build-notrace/release.yaml Benchmarks/.build-notrace/*/release/description.json
	cd Benchmarks && $(SWIFT) build -c release

## The report page in headless Chromium: load time and time per step on two collapsed flatMap
## traces of 10,000 nodes, one built, one recorded (Performance API; see Benchmarks/Sources/ReportBench).
bench-report: deps browser-deps
	$(SWIFT) build -c release $(SWIFT_BUILD_FLAGS) --product rxtrace
	cd Benchmarks && $(SWIFT) build -c release --product ReportBench
	Benchmarks/.build/release/ReportBench "$$($(SWIFT) build -c release $(SWIFT_BUILD_FLAGS) --show-bin-path)/rxtrace" out/bench-report

# --- chapters (make chapter N=02, make chapters, make diagrams) ---
# Each chapter is Chapters/NN-Topic/ built as executable chapterNN; the header line of each
# chapter is the first line of its README. The number is the chapter's place in the reading
# order (docs/chapters.md).
CHAPTER_DIRS := $(sort $(wildcard Chapters/[0-9][0-9]-*))
DIAGRAMS_DIR ?= out/diagrams
IMAGES_DIR := docs/images

.PHONY: chapter chapters diagrams

## Build and run one chapter: make chapter N=02 (ARGS="--diagrams out" passes arguments;
## ARGS=--answers prints the exercises' answers and why, ARGS="--answers --lang zh" in Chinese).
chapter: deps
	@test -n "$(N)" || { echo "usage: make chapter N=02" >&2; exit 2; }
	@dir=$$(ls -d Chapters/$(N)-* 2>/dev/null | head -1); \
	test -n "$$dir" || { echo "error: no chapter $(N) under Chapters/" >&2; exit 2; }; \
	$(SWIFT) build $(SWIFT_BUILD_FLAGS) --product chapter$(N) >/dev/null || exit 1; \
	echo "=== $$(head -1 $$dir/README.md | sed 's/^# //')"; \
	"$$($(SWIFT) build $(SWIFT_BUILD_FLAGS) --show-bin-path)/chapter$(N)" $(ARGS)

## Build and run every chapter in order, each under a header line beginning ===.
chapters: deps
	@for dir in $(CHAPTER_DIRS); do \
		n=$$(basename $$dir | cut -c1-2); \
		$(SWIFT) build $(SWIFT_BUILD_FLAGS) --product chapter$$n >/dev/null || exit 1; \
	done; \
	bin="$$($(SWIFT) build $(SWIFT_BUILD_FLAGS) --show-bin-path)"; \
	for dir in $(CHAPTER_DIRS); do \
		n=$$(basename $$dir | cut -c1-2); \
		echo "=== $$(head -1 $$dir/README.md | sed 's/^# //')"; \
		"$$bin/chapter$$n" || exit 1; \
		echo; \
	done

## Write every chapter's traces and diagrams under out/diagrams/NN-Topic/, and report.html: the
## chapter's whole run (traced with RXTRACE in a second run) replayed call by call. Then copy the
## pictures each chapter's README shows into docs/images/NN-Topic/: those are committed, and
## ChapterTests (ChapterDiagramTests) fail when one is not what the chapter draws today.
diagrams: deps
	@for dir in $(CHAPTER_DIRS); do \
		n=$$(basename $$dir | cut -c1-2); \
		$(SWIFT) build $(SWIFT_BUILD_FLAGS) --product chapter$$n >/dev/null || exit 1; \
	done; \
	$(SWIFT) build $(SWIFT_BUILD_FLAGS) --product rxtrace >/dev/null || exit 1; \
	bin="$$($(SWIFT) build $(SWIFT_BUILD_FLAGS) --show-bin-path)"; \
	for dir in $(CHAPTER_DIRS); do \
		name=$$(basename $$dir); n=$$(echo $$name | cut -c1-2); \
		rm -rf $(DIAGRAMS_DIR)/$$name; mkdir -p $(DIAGRAMS_DIR)/$$name; \
		"$$bin/chapter$$n" --diagrams $(DIAGRAMS_DIR)/$$name >/dev/null || exit 1; \
		RXTRACE=$(DIAGRAMS_DIR)/$$name/trace.rxt "$$bin/chapter$$n" >/dev/null || exit 1; \
		"$$bin/rxtrace" report $(DIAGRAMS_DIR)/$$name/trace.rxt -o $(DIAGRAMS_DIR)/$$name/report.html || exit 1; \
		rm -rf $(IMAGES_DIR)/$$name; \
		for picture in $$(grep -ohE "docs/images/$$name/[^)]+[.]svg" $$dir/README.md | sort -u); do \
			mkdir -p $(IMAGES_DIR)/$$name; \
			cp $(DIAGRAMS_DIR)/$$name/$$(basename $$picture) $$picture || \
				{ echo "error: $$dir/README.md shows $$picture, which the chapter does not draw" >&2; exit 1; }; \
		done; \
		echo "==> $(DIAGRAMS_DIR)/$$name: $$(ls $(DIAGRAMS_DIR)/$$name | wc -l) files; $(IMAGES_DIR)/$$name: $$(ls $(IMAGES_DIR)/$$name 2>/dev/null | wc -l) pictures"; \
	done


# --- thread sanitizer (make tsan) ---
## Concurrency stress tests under ThreadSanitizer (its own build folder: TSan objects differ).
## Mutex-guarded code is suppressed: TSan cannot see Synchronization.Mutex on Linux (see the file).
TSAN_SCRATCH ?= .build-tsan
tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path $(TSAN_SCRATCH)
	TSAN_OPTIONS="suppressions=$(CURDIR)/Tests/tsan-suppressions.txt $$TSAN_OPTIONS" \
		$(SWIFT) test --skip-build --sanitize=thread --scratch-path $(TSAN_SCRATCH) --no-parallel --filter Stress

# --- reliability (docs/reliability.md) ---
## More random pipelines than `make test` runs: make property N=100000 (SEED=1 is the first seed).
property: deps
	$(SWIFT) build $(SWIFT_BUILD_FLAGS) --build-tests
	RX_PROPERTY_N=$(or $(N),2000) RX_PROPERTY_SEED=$(or $(SEED),1) \
		$(SWIFT) test $(SWIFT_BUILD_FLAGS) $(SWIFT_TEST_FLAGS) --skip-build --filter PipelinePropertyTests

## Soak (not in `make test`): 10 million events through flatMap/merge/observe(on:) across threads,
## tracing off then on; events/s and resident memory, failing if memory grows. EVENTS=… for fewer.
soak: deps
	@rm -f Benchmarks/.build/release.yaml Benchmarks/.build/*/release/description.json
	cd Benchmarks && $(SWIFT) build -c release --product Soak
	cd Benchmarks && .build/release/Soak $(EVENTS)

## The whole suite under AddressSanitizer, LeakSanitizer included (its own build folder); what
## LeakSanitizer must not report is in Tests/lsan-suppressions.txt, with why.
ASAN_SCRATCH ?= .build-asan
asan: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path $(ASAN_SCRATCH)
	LSAN_OPTIONS="suppressions=$(CURDIR)/Tests/lsan-suppressions.txt print_suppressions=0 $$LSAN_OPTIONS" \
		$(SWIFT) test --skip-build --sanitize=address --scratch-path $(ASAN_SCRATCH) $(SWIFT_TEST_FLAGS)

## Fuzz the trace reader and renderer with libFuzzer for SECONDS (default 60). The harness is
## Fuzz/ (its own package); seeds are Fuzz/Seeds, what it learns goes to out/fuzz/corpus and any
## crashing input to out/fuzz/crash-*.
FUZZ_OUT ?= out/fuzz
fuzz: deps
	@# As for bench: SwiftPM does not see files added to RxAnatomy in an existing build folder.
	@rm -f Fuzz/.build/release.yaml Fuzz/.build/*/release/description.json
	cd Fuzz && $(SWIFT) build -c release --product TraceFuzzer --sanitize=fuzzer --sanitize=address
	@mkdir -p $(FUZZ_OUT)/corpus
	LSAN_OPTIONS="suppressions=$(CURDIR)/Tests/lsan-suppressions.txt print_suppressions=0 $$LSAN_OPTIONS" \
		Fuzz/.build/release/TraceFuzzer $(FUZZ_OUT)/corpus Fuzz/Seeds -dict=Fuzz/trace.dict \
			-max_total_time=$(or $(SECONDS),60) -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
			-artifact_prefix=$(FUZZ_OUT)/ -print_final_stats=1
