# OpenCANN: `make` builds, `make demo` shows the pipeline, `make test` runs every test.
BUILD ?= build
PREFIX ?= /usr/local
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all build configure setup demo test install bench models clean

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

bench: build
	/usr/bin/python3 bench/model_latency.py --build $(BUILD)

clean:
	rm -rf $(BUILD)
