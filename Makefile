# OpenCANN: `make` builds, `make demo` shows the pipeline, `make test` runs every test.
BUILD ?= build
PREFIX ?= /usr/local
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all build configure setup demo test install bench models fuzz test-asan clean

all: build

configure:
	@test -f $(BUILD)/CMakeCache.txt || cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

setup:
	bash scripts/setup.sh

demo: setup
	$(MAKE) build
	/usr/bin/python3 examples/digits_demo/run_demo.py --build $(BUILD)

test: setup
	$(MAKE) build
	cd $(BUILD) && ctest --output-on-failure --timeout 1500

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# The whole model battery (long): results in docs/models.md.
models: setup
	$(MAKE) build
	/usr/bin/python3 tests/models/battery.py --build $(BUILD) --table docs/models.md \
	  --json $(BUILD)/models.json --work $(BUILD)/battery

# libFuzzer harnesses (fuzz/), ASan+UBSan, SECONDS each; findings land in fuzz/findings/.
FUZZ_BUILD ?= build-fuzz
SECONDS ?= 60
FUZZERS = onnx_import_fuzzer om_load_fuzzer atc_flags_fuzzer python_tokenizer_fuzzer op_json_fuzzer
fuzz:
	bash scripts/setup.sh clang
	@test -f $(FUZZ_BUILD)/CMakeCache.txt || CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOC_FUZZ=ON -DOC_BUILD_TESTS=OFF -DOC_BUILD_PYTHON=OFF
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(FUZZERS)
	bash fuzz/run.sh $(FUZZ_BUILD)/fuzz $(SECONDS)

# Unit and Ascend C tests, the C programs and a few conversions under ASan+UBSan.
ASAN_BUILD ?= build-asan
test-asan: setup
	@test -f $(ASAN_BUILD)/CMakeCache.txt || cmake -S . -B $(ASAN_BUILD) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOC_BUILD_PYTHON=OFF \
	  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer" \
	  -DCMAKE_C_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer" \
	  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
	  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined"
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  ctest --output-on-failure --timeout 1500 -E "e2e_pytest|model_battery|onnx_conformance"

bench: build
	/usr/bin/python3 bench/model_latency.py --build $(BUILD)

clean:
	rm -rf $(BUILD)
