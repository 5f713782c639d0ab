# OpenCANN: `make` builds, `make demo` shows the pipeline, `make test` runs every test.
BUILD ?= build
PREFIX ?= /usr/local
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all build configure setup demo test install bench models tutorials fuzz fuzz-tools test-asan test-asan-ci test-tsan test-tsan-ci format format-check clean

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

# The five tutorials of docs/tutorials/ run end to end, their outputs checked, and the pages
# rendered in headless Chromium (make test runs them without the rendering).
tutorials: setup
	bash scripts/setup.sh python3-markdown
	$(MAKE) build
	/usr/bin/python3 examples/tutorials/run_tutorials.py --build $(BUILD) --render

# libFuzzer harnesses (fuzz/), ASan+UBSan, SECONDS each; findings land in fuzz/findings/.
FUZZ_BUILD ?= build-fuzz
SECONDS ?= 60
FUZZERS = onnx_import_fuzzer caffe_import_fuzzer tf_import_fuzzer air_import_fuzzer om_load_fuzzer atc_flags_fuzzer python_tokenizer_fuzzer op_json_fuzzer dvpp_media_fuzzer
fuzz:
	bash scripts/setup.sh clang
	@test -f $(FUZZ_BUILD)/CMakeCache.txt || CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOC_FUZZ=ON -DOC_BUILD_TESTS=OFF -DOC_BUILD_PYTHON=OFF
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(FUZZERS)
	bash fuzz/run.sh $(FUZZ_BUILD)/fuzz $(SECONDS)

# Structure-aware ONNX mutations through the built atc and msame (fuzz/tool_campaign.py),
# CASES of them from ONNX's node test models; findings land in fuzz/findings/.
CASES ?= 10000
fuzz-tools: setup
	$(MAKE) build
	/usr/bin/python3 fuzz/tool_campaign.py --build $(BUILD) --cases $(CASES)

# Every test but the Python suite, the battery, conformance and the tutorials under
# ASan+UBSan (clang): unit and Ascend C tests, the bad-input corpus, the AscendCL stress run.
# The tutorials install the tree and build the learner's programs with the system compiler
# and pyACL, which an instrumented build without Python cannot provide.
ASAN_BUILD ?= build-asan
test-asan: setup
	bash scripts/setup.sh clang libomp-dev
	@test -f $(ASAN_BUILD)/CMakeCache.txt || CC=clang CXX=clang++ cmake -S . -B $(ASAN_BUILD) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOC_BUILD_PYTHON=OFF \
	  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer" \
	  -DCMAKE_C_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer" \
	  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
	  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined"
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	  ctest --output-on-failure --timeout 1500 -E "e2e_pytest|model_battery|onnx_conformance|tutorials"

# What CI runs under ASan+UBSan in the time it has (clang, which compiles this tree about
# three times faster than g++; -O1; tools and unit tests only): the
# hostile-.om and small-rank unit tests, the bad-input corpus through the real tools, the
# round trip over the fuzz corpora and the fuzzers' regressions, the AscendCL stress, race
# and misuse runs (LeakSanitizer included).
ASAN_CI_BUILD ?= build-asan-ci
ASAN_CI_TESTS = HostileOm|SmallRankInputs|UnknownRank|UnknownDims|Om\.|Driver|bad_inputs|acl_stress|acl_misuse|dvpp_video_race|hi_dvpp_|AscendC|SocTable|Guarded|Config|round_trip_|OpSchema|RecurrentShapes|GraphNames|SubgraphCheck|SchemaChecks|BoolInitializers|StringValues
test-asan-ci: setup
	bash scripts/setup.sh clang libomp-dev
	@test -f $(ASAN_CI_BUILD)/CMakeCache.txt || CC=clang CXX=clang++ cmake -S . -B $(ASAN_CI_BUILD) \
	  -DCMAKE_BUILD_TYPE=None -DOC_BUILD_PYTHON=OFF \
	  -DCMAKE_CXX_FLAGS="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer" \
	  -DCMAKE_C_FLAGS="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer" \
	  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
	  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined"
	cmake -S . -B $(ASAN_CI_BUILD) > /dev/null  # a kept folder learns targets added since
	cmake --build $(ASAN_CI_BUILD) -j $(JOBS) --target oc_unit_tests oc_ascendc_tests atc msame msopgen gpu2npu oc_acl_stress \
	  oc_acl_race oc_acl_misuse oc_dvpp_video_race acl_dvpp_video oc_round_trip_corpus \
	  oc_src_unit_tests oc_hi_dvpp_rules oc_hi_dvpp_threads
	cd $(ASAN_CI_BUILD) && UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	  ctest --output-on-failure --timeout 1500 -R "$(ASAN_CI_TESTS)"

# The runtime, AscendCL and Ascend C emulation tests under ThreadSanitizer, OpenMP regions
# included (clang, LLVM's OpenMP runtime and its Archer tool: scripts/tsan_env.sh).
TSAN_BUILD ?= build-tsan
TSAN_TESTS = Family|Kernels|Backend|Guarded|Driver|HostileOm|Om\.|AscendC|Aipp|Precision|DumpFile|acl_stress
test-tsan: setup
	bash scripts/setup.sh clang libomp-dev
	@test -f $(TSAN_BUILD)/CMakeCache.txt || CC=clang CXX=clang++ cmake -S . -B $(TSAN_BUILD) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOC_BUILD_PYTHON=OFF \
	  -DCMAKE_CXX_FLAGS="-fsanitize=thread" -DCMAKE_C_FLAGS="-fsanitize=thread" \
	  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=thread"
	cmake --build $(TSAN_BUILD) -j $(JOBS)
	cd $(TSAN_BUILD) && bash $(CURDIR)/scripts/tsan_env.sh $(abspath $(TSAN_BUILD)) \
	  ctest --output-on-failure --timeout 1500 -R "$(TSAN_TESTS)"

# What CI runs under ThreadSanitizer (clang, -O1; the AscendCL library, atc for the test
# models and the C programs only): the AscendCL stress and race runs (threads executing,
# copying and destroying handles under each other, tests/c/run_stress.py) and the misuse run,
# OpenMP regions included (scripts/tsan_env.sh). No suppressions: a report fails the run.
TSAN_CI_BUILD ?= build-tsan-ci
TSAN_CI_TESTS = acl_stress|acl_misuse|dvpp_video_race|hi_dvpp_threads
test-tsan-ci: setup
	bash scripts/setup.sh clang libomp-dev
	@test -f $(TSAN_CI_BUILD)/CMakeCache.txt || CC=clang CXX=clang++ cmake -S . -B $(TSAN_CI_BUILD) \
	  -DCMAKE_BUILD_TYPE=None -DOC_BUILD_PYTHON=OFF \
	  -DCMAKE_CXX_FLAGS="-O1 -fsanitize=thread" -DCMAKE_C_FLAGS="-O1 -fsanitize=thread" \
	  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=thread"
	cmake -S . -B $(TSAN_CI_BUILD) > /dev/null
	cmake --build $(TSAN_CI_BUILD) -j $(JOBS) --target atc oc_acl_stress oc_acl_race oc_acl_misuse \
	  oc_dvpp_video_race acl_dvpp_video oc_hi_dvpp_threads
	cd $(TSAN_CI_BUILD) && bash $(CURDIR)/scripts/tsan_env.sh $(abspath $(TSAN_CI_BUILD)) \
	  ctest --output-on-failure --timeout 1500 -R "$(TSAN_CI_TESTS)"

# Kernel suite (Google Benchmark), then both engines on the five reference models at 1 and
# 2 threads, quiet and under a background load, memory and load time, bf16 modes; the
# tables land in docs/performance.md.
bench: setup
	bash scripts/setup.sh libbenchmark-dev
	$(MAKE) configure
	cmake -S . -B $(BUILD) > /dev/null
	cmake --build $(BUILD) -j $(JOBS)
	OCANN_NUM_THREADS=1 $(BUILD)/bin/oc_hot_kernels_bench
	/usr/bin/python3 bench/model_latency.py --build $(BUILD) --all --bf16 --write-docs

# Every C and C++ file git tracks, against .clang-format (clang-format 14, Debian's).
FORMAT_FILES = $(wildcard $(shell git ls-files --cached --others --exclude-standard '*.c' '*.cc' '*.cpp' '*.h' '*.hpp'))
format:
	clang-format -i $(FORMAT_FILES)
format-check:
	@command -v clang-format >/dev/null || bash scripts/setup.sh clang-format
	@clang-format --dry-run --Werror $(FORMAT_FILES) || { echo 'format-check: run make format'; exit 1; }
	@echo "format-check: $(words $(FORMAT_FILES)) files follow .clang-format"

clean:
	rm -rf $(BUILD)
