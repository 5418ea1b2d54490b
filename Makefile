# schach: a thin wrapper over CMake and CTest. Every target can also be run by hand; see docs/development.md.
#
#   make, make build   release build in build/ with gcc; the browser UI bundled into build/web (esbuild)
#   make run           install missing Debian packages, build, run RUN_CMD
#   make run-cluster   install and build like make run, then a cluster on loopback in the background
#                      (scripts/cluster): PostgreSQL, NODES schach serve nodes, HAProxy on PORT (8080)
#   make stop-cluster  stops it (the nodes drain)
#   make test          1. release build (gcc) + every CTest test (unit, slow, cli)
#                      2. ASan+UBSan debug build in build-asan/ (clang) + the unit tests (both
#                         slider lookups: unit.core.magic forces magic bitboards)
#                      3. ThreadSanitizer build in build-tsan/ (clang) + the tests that run threads
#                         (engine pool, UCI, the server's workers and stores; label "tsan")
#                      4. libFuzzer build in build-fuzz/ (clang) + a short, reproducible run of every
#                         harness (fixed seed and input count; FUZZ_SECONDS=N fuzzes N s from a random seed)
#   make install       builds and installs libschach (shared + static), its headers, schach.pc and
#                      the CMake package under PREFIX (/usr/local); DESTDIR=... stages it elsewhere
#   make uninstall     removes what the last make install installed (build/install_manifest_library.txt)
#   make docs          the library's reference (Doxygen) in docs/library/reference/html/index.html
#   make bench         perft speed of schach, and of Stockfish when it is installed
#   make bench-server  schach serve under load: moves per second, latency, 10,000 WebSockets
#   make bench-cluster   1, 2 and 3 nodes on PostgreSQL behind HAProxy, and one on SQLite: moves per
#                        second, latency, NOTIFY lag and the cost of a move (CPU, commits, WAL bytes)
#   make bench-trust   the accounts' reads with 1,000,000 games among 10,000 accounts, and a login while one
#                      address holds 64 heavy reads (bench/trust.sh)
#   make bench-analysis-server  the server's analyses: 100 asked at once, positions/s per worker, a live
#                        game's moves meanwhile
#   make bench-winnable  dead-position analysis on real-game positions: time per position, verdicts
#   make bench-analysis  schach analyse: positions/s per worker, a 40-move game's time, the judgements'
#                        agreement at the default budget and at 10x on 50 games (about 15 min on 2 cores)
#   make bench-strength  schach match against GNU Chess, Ethereal and Stockfish (hours)
#   make bench-levels    the Elo of the levels for people, against Stockfish's UCI_Elo (about 45 min)
#   make bench-threads   time to depth with Threads 1 and 2 (lazy SMP)
#   make bench-wasm      the engine in WebAssembly (Node.js, Chromium) against native; schach.wasm's size
#   make bench-clock     the engine's clock handling: 200 self-play games at 1 s + 0.01 s under the
#                        match runner's clock, none may be lost on time (about 4 min; an idle machine)
#   make asan | tsan | fuzz | test-release | test-asan | test-tsan | test-fuzz | deps | format | clean | help
#
# Variables: WERROR=1 makes warnings errors (the default when CI is set, e.g. CI=true),
# JOBS (default 2), FUZZ_SECONDS per harness (default 0: the reproducible run), FUZZ_RUNS (inputs
# per harness, 0: each harness's count in fuzz/CMakeLists.txt), FUZZ_SEED (1), RUN_CMD; for the cluster NODES (3),
# PORT (8080) and CLUSTER_DIR ($XDG_DATA_HOME/schach/cluster).
#
# Nothing in make test depends on the machine's speed (a busy machine passes it as an idle one does):
# tests wait for conditions with generous deadlines, and what measures time spent is a benchmark.

JOBS         ?= 2
PREFIX       ?= /usr/local
BUILD        ?= build
ASAN_BUILD   ?= build-asan
TSAN_BUILD   ?= build-tsan
FUZZ_BUILD   ?= build-fuzz
CC_RELEASE   ?= gcc
CC_CLANG     ?= clang
FUZZ_SECONDS ?= 0
FUZZ_RUNS    ?= 0
FUZZ_SEED    ?= 1

# The main job of `make run`: the web server on localhost with its SQLite file in the data folder
# (terminal play is `./build/schach play`).
RUN_CMD ?= ./$(BUILD)/schach serve

ifneq ($(filter-out false 0 no,$(CI)),)
WERROR ?= 1
else
WERROR ?= 0
endif
CMAKE_WERROR := -DSCHACH_WERROR=$(if $(filter 1 ON on yes true,$(WERROR)),ON,OFF)

CTEST := ctest --output-on-failure --no-tests=error -j$(JOBS)
# Sanitizers stop at the first finding and show where it happened.
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1 \
           UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: docs install uninstall tsan test-tsan all build web run run-cluster stop-cluster bench-server bench-trust bench-analysis-server bench-cluster bench-winnable bench-analysis bench-strength bench-levels bench-threads bench-wasm bench-clock test test-release test-asan test-fuzz asan fuzz bench deps format format-check clean help

all: build

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=$(CC_RELEASE) $(CMAKE_WERROR)
	cmake --build $(BUILD) -j$(JOBS)

# The browser UI's npm packages (the chessground board), installed from the lock file once.
web:
	@if [ -f web/package.json ] && [ ! -d web/node_modules ]; then \
	    npm ci --prefix web --no-audit --no-fund; \
	fi

run:
	bash scripts/install-deps
	$(MAKE) --no-print-directory build web
	$(RUN_CMD)

# Several nodes on one PostgreSQL behind HAProxy, on loopback, in the background (scripts/cluster;
# NODES, PORT and CLUSTER_DIR reach it through the environment). Running it again starts what is not
# running; make stop-cluster stops HAProxy, the nodes (they drain) and PostgreSQL.
run-cluster:
	bash scripts/install-deps
	$(MAKE) --no-print-directory build web
	SCHACH=$${SCHACH:-$(CURDIR)/$(BUILD)/schach} bash scripts/cluster start

stop-cluster:
	bash scripts/cluster stop

# Only the library's targets are built for it: the program, server and tests are not installed.
install:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=$(CC_RELEASE) $(CMAKE_WERROR)
	cmake --build $(BUILD) -j$(JOBS) --target schach_lib schach_shared
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)" --component library
	@# The dynamic linker's cache learns of the new libschach.so.1 (a real install as root only).
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then ldconfig; fi

uninstall:
	DESTDIR="$(DESTDIR)" cmake --build $(BUILD) --target uninstall

deps:
	bash scripts/install-deps

# Runs all three stages even when one fails, so one run reports everything; fails if any failed.
test: deps
	@failed=""; \
	for stage in test-release test-asan test-tsan test-fuzz; do \
	    start=$$(date +%s); \
	    if $(MAKE) --no-print-directory $$stage; then result=passed; else result=FAILED; failed="$$failed $$stage"; fi; \
	    summary="$$summary$$(printf '  %-13s %-7s %4ss' $$stage $$result $$(( $$(date +%s) - start )))\n"; \
	done; \
	printf '\nmake test:\n%b' "$$summary"; \
	if [ -n "$$failed" ]; then echo "make test: FAILED:$$failed"; exit 1; fi; \
	echo "make test: all stages passed"

test-release: build web
	$(CTEST) --test-dir $(BUILD)

ASAN_CONFIGURE = cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=$(CC_CLANG) \
	    -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DSCHACH_SANITIZE=ON -DSCHACH_NATIVE=OFF $(CMAKE_WERROR)

asan:
	$(ASAN_CONFIGURE)
	cmake --build $(ASAN_BUILD) -j$(JOBS)

# Only the programs of the tests labelled unit are built (target unit_programs): not the program,
# the shared library, the benchmarks or the web bundle, which this stage does not run.
test-asan:
	$(ASAN_CONFIGURE)
	cmake --build $(ASAN_BUILD) -j$(JOBS) --target unit_programs
	$(SAN_ENV) $(CTEST) --test-dir $(ASAN_BUILD) -L unit

# Only the programs of the tests labelled tsan are built, to keep this stage short.
TSAN_TARGETS = test_engine test_uci test_accounts test_store test_service test_service_cache \
               test_service_computer test_service_rules test_service_rematch test_service_storage test_worker \
               test_analysis
tsan:
	cmake -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=$(CC_CLANG) \
	    -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DSCHACH_TSAN=ON -DSCHACH_BENCH=OFF $(CMAKE_WERROR)
	cmake --build $(TSAN_BUILD) -j$(JOBS) --target $(TSAN_TARGETS)

# halt_on_error: the first race fails the test, with both stacks.
test-tsan: tsan
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 $(CTEST) --test-dir $(TSAN_BUILD) -L tsan

fuzz:
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=$(CC_CLANG) \
	    -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DSCHACH_FUZZ=ON -DSCHACH_TESTS=OFF $(CMAKE_WERROR) \
	    -DSCHACH_FUZZ_SECONDS=$(FUZZ_SECONDS) -DSCHACH_FUZZ_RUNS=$(FUZZ_RUNS) \
	    -DSCHACH_FUZZ_SEED=$(FUZZ_SEED)
	cmake --build $(FUZZ_BUILD) -j$(JOBS) --target fuzz

test-fuzz: fuzz
	$(SAN_ENV) $(CTEST) --test-dir $(FUZZ_BUILD) -L fuzz

bench: build
	bash bench/perft.sh ./$(BUILD)/schach

bench-winnable: build
	bash bench/winnable.sh ./$(BUILD)/bench/winnable/schach_winbench

# schach analyse at its default budget and at 10x (THREADS engines, default 2; NODES, GAMES: see the script).
bench-analysis: build
	bash bench/analysis.sh ./$(BUILD)/schach

bench-server: build web
	bash bench/server.sh ./$(BUILD)/schach ./$(BUILD)/bench/server/schach_loadgen

bench-trust: build
	bash bench/trust.sh ./$(BUILD)/schach ./$(BUILD)/bench/server/schach_mkgames

# The server's game analyses: 100 asked at once (GAMES, PLIES, WORKERS: see the script).
bench-analysis-server: build
	bash bench/analysis-server.sh ./$(BUILD)/schach ./$(BUILD)/bench/server/schach_mkgames

# Several nodes on PostgreSQL (scripts/cluster, fresh each run) against one on SQLite (bench/cluster.sh).
bench-cluster: build
	bash bench/cluster.sh ./$(BUILD)/schach ./$(BUILD)/bench/server/schach_loadgen

# Playing strength against Debian's engines (hours; GAMES, TC, CONCURRENCY, ELOS: see the script).
bench-strength: build
	bash bench/strength.sh ./$(BUILD)/schach

bench-levels: build
	bash bench/levels.sh ./$(BUILD)/schach

bench-threads: build
	bash bench/threads.sh ./$(BUILD)/schach

bench-wasm: build
	bash bench/wasm.sh ./$(BUILD)

bench-clock: build
	bash bench/match_clock.sh ./$(BUILD)/schach

FORMAT_FILES = $(shell find src include tests fuzz bench examples -name '*.[ch]' 2>/dev/null)
format:
	clang-format -i $(FORMAT_FILES)

# The reference of libschach from its headers, the tutorial and the examples (docs/library/Doxyfile).
docs:
	@command -v doxygen >/dev/null || { echo "make docs needs doxygen (scripts/install-deps installs it)" >&2; exit 1; }
	mkdir -p docs/library/reference
	SCHACH_DOCS_OUT=docs/library/reference doxygen docs/library/Doxyfile
	@echo "the reference: docs/library/reference/html/index.html"

format-check:
	clang-format --dry-run -Werror $(FORMAT_FILES)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) $(FUZZ_BUILD)

help:
	@sed -n '1,/^$$/p' Makefile | sed 's/^# \{0,1\}//'
