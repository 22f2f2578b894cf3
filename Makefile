# hilo3d: the two commands of the README.
#   make demo  - bootstrap, build, render the demo to out/demo.png
#   make test  - bootstrap, build, run the suite on both backends, then the ASan+UBSan build,
#                the fuzz smoke runs and the browser build's test (web-test)
#   make docs  - the API reference from the public headers (Doxygen) into build/docs/html,
#                failing on any undocumented public symbol (CTest docs_public_api checks the same)
JOBS ?= $(shell nproc)
BUILD ?= build
ASAN_BUILD ?= build-asan
WEB_BUILD ?= build-web
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CTEST_FLAGS ?= --output-on-failure --timeout 600 -j $(JOBS)

.PHONY: all deps build build-asan demo docs test test-fast test-asan fuzz fuzz-smoke random-frames bench peer-filament clean web web-test

all: build

deps:
	$(SUDO) bash scripts/bootstrap.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

build-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DHL_SANITIZE=ON >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)

demo: build
	mkdir -p out
	./$(BUILD)/tools/hilo3d render --backend auto --width 1280 --height 720 --out out/demo.png

docs: deps
	python3 scripts/check_docs.py --html --out $(BUILD)/docs

test-fast: build
	cd $(BUILD) && ctest $(CTEST_FLAGS)

# VK_ICD_FILENAMES: with the Vulkan loader's driver search on, LeakSanitizer sees 240 bytes per
# Dawn instance left by a driver library that is unloaded (seen with plain Dawn, no hilo3d code);
# naming the ICD explicitly avoids that path. The sanitizer run needs only lavapipe.
# intercept_tls_get_addr=0: GCC 12's (and LLVM <= 16's) runtime takes a dynamic TLS block whose
# address happens to be 16 mod 4096 for glibc 2.19's layout, reads a bogus range from before it,
# and LeakSanitizer's tracer then crashes at exit ("Tracer caught signal 11", no leak reported;
# google/sanitizers#1322). It struck random_frames_loss_kept in CI once (Mesa and Dawn's dlopened
# libraries allocate such blocks on every device); tests/install/test_install.sh sets the same.
# Leak checking of static TLS, stacks, globals and the heap is unchanged.
ASAN_TEST_OPTIONS = detect_leaks=1:abort_on_error=0:intercept_tls_get_addr=0
test-asan: build-asan
	cd $(ASAN_BUILD) && VK_ICD_FILENAMES=$${VK_ICD_FILENAMES:-/usr/share/vulkan/icd.d/lvp_icd.json} ASAN_OPTIONS=$(ASAN_TEST_OPTIONS) \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp:print_suppressions=0 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest $(CTEST_FLAGS)

# Every libFuzzer target for FUZZ_SMOKE_SECONDS each (CI); `make fuzz FUZZ_SECONDS=3600
# FUZZ_JOBS=2` for long runs. The corpora also replay under CTest in both builds above.
FUZZ_SMOKE_SECONDS ?= 20
FUZZ_SECONDS ?= 600
fuzz-smoke: deps
	FUZZ_SEED=1 bash scripts/fuzz.sh $(FUZZ_SMOKE_SECONDS)

fuzz: deps
	bash scripts/fuzz.sh $(FUZZ_SECONDS)

# The browser build (README "Browser build"): emcc-built libraries from Debian sources, the page
# (Emscripten, WebGL 2 through the gles3 backend), then headless Chromium renders the demo scene
# and a glTF model and compares them with the native gles3 renders (web/page_test.py).
web: deps
	bash scripts/web_deps.sh $(WEB_BUILD)/deps
	NODE_PATH=/usr/share/nodejs cmake --preset web -B $(WEB_BUILD) -DHL_WEB_DEPS=$(CURDIR)/$(WEB_BUILD)/deps >/dev/null
	NODE_PATH=/usr/share/nodejs cmake --build $(WEB_BUILD) --target hilo3d_web -j $(JOBS)

web-test: web build
	python3 web/page_test.py --page $(WEB_BUILD)/web --hilo3d $(BUILD)/tools/hilo3d --out $(WEB_BUILD)/page-test

test: test-fast test-asan fuzz-smoke web-test

# The long randomized differential run (issue 7 asks for 100,000 frames): RF_JOBS processes
# from seed RF_SEED, optionally bounded by RF_SECONDS (scripts/random_frames.sh).
RF_FRAMES ?= 100000
RF_JOBS ?= $(JOBS)
RF_SEED ?= 0x700000
RF_SECONDS ?= 0
random-frames: build
	RF_BIN=$(CURDIR)/$(BUILD)/bench/random_frames bash scripts/random_frames.sh $(RF_FRAMES) $(RF_JOBS) $(RF_SEED) $(RF_SECONDS)

bench: build
	./$(BUILD)/bench/rhi_draws --json

# The peer benchmark against Google Filament (bench/README.md, "peer_filament"): installs Debian's
# Filament 1.9.25 (scripts/install-filament.sh), configures the normal build (bench/CMakeLists.txt
# builds peer_filament only when it finds Filament) and runs it under Xvfb (Debian's Filament
# renders through GLX) with short defaults. Not part of `make test`.
PEER_FILAMENT_ARGS ?= --frames 60 --warmup 10
peer-filament: deps
	$(SUDO) bash scripts/install-filament.sh
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD) --target peer_filament -j $(JOBS)
	xvfb-run -a ./$(BUILD)/bench/peer_filament $(PEER_FILAMENT_ARGS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(WEB_BUILD) build-fuzz out
