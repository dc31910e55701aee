# Thin wrapper over CMake. `make demo` is the one command a new user runs.
BUILD ?= build
BUILD_ASAN ?= build-asan
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
GPURF = $(BUILD)/src/gpurf

.PHONY: all deps configure build demo test sanitize fuzz bench clean

all: build

deps:
	bash tools/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

configure: $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# Installs dependencies, builds, and runs the main job on built-in defaults:
# the five papers' claims beside ours, and the report in report/.
demo: deps
	$(MAKE) build
	$(GPURF) reproduce all --jobs $(JOBS) --out report

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The test suite again under AddressSanitizer and UndefinedBehaviorSanitizer.
sanitize:
	cmake -S . -B $(BUILD_ASAN) -DGPURF_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug $(CMAKE_FLAGS)
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	ctest --test-dir $(BUILD_ASAN) --output-on-failure -j $(JOBS)

# Every reader under libFuzzer (clang), FUZZ_SECONDS each; CI runs them briefly.
FUZZ_SECONDS ?= 300
fuzz:
	bash tests/fuzz/run.sh $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(BUILD_ASAN)
