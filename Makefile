# Front door. `make run` builds and runs torchdoctor on this machine;
# `make test` installs what the tests need, builds, and runs every test
# (plain, then under ASan+UBSan, then each fuzzer for FUZZ_SECONDS).
BUILD        ?= build
ASAN_BUILD   ?= build-asan
FUZZ_BUILD   ?= build-fuzz
WIN64_BUILD  ?= build-win64
WIN32_BUILD  ?= build-win32
FUZZ_SECONDS ?= 45
PREFIX       ?= /usr/local
DESTDIR      ?=
JOBS         ?= $(shell nproc)
GEN          := $(shell command -v ninja >/dev/null 2>&1 && echo -G Ninja)

.PHONY: all build run test test-plain test-asan test-fuzz deps-build deps-test deps-windows deps-package bench fuzz format clean windows install uninstall deb wheel

all: build

deps-build:
	@bash scripts/install-deps.sh build

deps-test:
	@bash scripts/install-deps.sh test

build: deps-build
	@cmake -S . -B $(BUILD) $(if $(wildcard $(BUILD)/CMakeCache.txt),,-G Ninja) -DTD_TESTS=OFF >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The main job: diagnose this machine. Exit status 1 (an error found on this
# machine) is a result, not a failure of `make run`.
run: build
	@./$(BUILD)/torchdoctor check; rc=$$?; [ $$rc -le 1 ] || exit $$rc

# The ASan+UBSan suite uses the fixtures the plain suite has just built
# (they do not depend on the build; tests/tests.cmake, TD_FIXTURES_FROM).
test: deps-test
	@$(MAKE) --no-print-directory test-plain
	@$(MAKE) --no-print-directory test-asan ASAN_FIXTURES=$(abspath $(BUILD))/fixtures
	@$(MAKE) --no-print-directory test-fuzz

test-plain:
	cmake -S . -B $(BUILD) -G Ninja -DTD_TESTS=ON >/dev/null
	cmake --build $(BUILD) -j $(JOBS)
	bash scripts/run-tests.sh $(BUILD) $(JOBS)

# ASAN_FIXTURES: a fixtures folder to use when complete (`make test` names
# the plain build's); unset, the ASan build makes its own.
test-asan:
	CC=clang cmake -S . -B $(ASAN_BUILD) -G Ninja -DTD_TESTS=ON -DTD_SANITIZE=ON \
	  $(if $(ASAN_FIXTURES),-DTD_FIXTURES_FROM=$(ASAN_FIXTURES),-UTD_FIXTURES_FROM) >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  bash scripts/run-tests.sh $(ASAN_BUILD) $(JOBS)

test-fuzz:
	CC=clang cmake -S . -B $(FUZZ_BUILD) -G Ninja -DTD_TESTS=OFF -DTD_FUZZ=ON >/dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS)
	bash bench/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(BUILD)/fixtures

bench: deps-test
	@bash scripts/install-deps.sh bench
	cmake -S . -B $(BUILD) -G Ninja -DTD_TESTS=ON >/dev/null
	cmake --build $(BUILD) -j $(JOBS)
	bash bench/inspect.sh $(BUILD)/torchdoctor
	bash bench/deps.sh $(BUILD)/torchdoctor
	bash bench/check.sh $(BUILD)/torchdoctor
	bash bench/bench.sh $(BUILD)/torchdoctor
	bash bench/gpu-code.sh $(BUILD)/torchdoctor $(BUILD)/fixtures

fuzz: deps-test
	CC=clang cmake -S . -B $(FUZZ_BUILD) -G Ninja -DTD_TESTS=OFF -DTD_FUZZ=ON >/dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS)
	bash bench/fuzz.sh $(FUZZ_BUILD) $${SECONDS_EACH:-600} $(BUILD)/fixtures

# torchdoctor.exe for x64 and x86 Windows, cross-built with mingw-w64
# (docs/windows-build.md): $(WIN64_BUILD)/torchdoctor.exe, $(WIN32_BUILD)/torchdoctor.exe.
deps-windows:
	@bash scripts/install-deps.sh windows

windows: deps-windows
	cmake -S . -B $(WIN64_BUILD) -G Ninja -DTD_TESTS=OFF -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake >/dev/null
	cmake --build $(WIN64_BUILD) -j $(JOBS)
	cmake -S . -B $(WIN32_BUILD) -G Ninja -DTD_TESTS=OFF -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-i686.cmake >/dev/null
	cmake --build $(WIN32_BUILD) -j $(JOBS)

# Installs into $(DESTDIR)$(PREFIX): bin/torchdoctor, the man pages, the
# bash/zsh/fish completions and the docs; `make uninstall` removes exactly
# what the last install wrote (CMake's install_manifest.txt).
install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

uninstall:
	@[ -f $(BUILD)/install_manifest.txt ] || { echo "nothing was installed from $(BUILD)"; exit 1; }
	@sed 's|^|$(DESTDIR)|' $(BUILD)/install_manifest.txt | xargs -r -d '\n' rm -fv
	@for d in "$(DESTDIR)$(PREFIX)/share/doc/torchdoctor"; do [ -d "$$d" ] && find "$$d" -depth -type d -empty -delete; done; true
	@rm -f $(BUILD)/install_manifest.txt

deps-package:
	@bash scripts/install-deps.sh package

# dist/torchdoctor_<version>_amd64.deb (docs/packaging.md).
deb: build deps-package
	bash scripts/make-deb.sh $(BUILD) dist

# dist/torchdoctor-<version>-py3-none-manylinux_2_17_x86_64.whl, and the
# win_amd64 / win32 wheels when `make windows` has built the .exe files.
# The executables are stripped copies (debug info stays in the build).
wheel: build deps-package
	@mkdir -p $(BUILD)/wheel-stage
	strip -o $(BUILD)/wheel-stage/torchdoctor $(BUILD)/torchdoctor
	$(if $(wildcard $(WIN64_BUILD)/torchdoctor.exe),x86_64-w64-mingw32-strip -o $(BUILD)/wheel-stage/torchdoctor64.exe $(WIN64_BUILD)/torchdoctor.exe)
	$(if $(wildcard $(WIN32_BUILD)/torchdoctor.exe),i686-w64-mingw32-strip -o $(BUILD)/wheel-stage/torchdoctor32.exe $(WIN32_BUILD)/torchdoctor.exe)
	/usr/bin/python3 scripts/make-wheel.py --version "$$(./$(BUILD)/torchdoctor --version | cut -d' ' -f2)" \
	  --out dist --linux $(BUILD)/wheel-stage/torchdoctor \
	  $(if $(wildcard $(WIN64_BUILD)/torchdoctor.exe),--win64 $(BUILD)/wheel-stage/torchdoctor64.exe) \
	  $(if $(wildcard $(WIN32_BUILD)/torchdoctor.exe),--win32 $(BUILD)/wheel-stage/torchdoctor32.exe)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(WIN64_BUILD) $(WIN32_BUILD) dist
