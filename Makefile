# Motet — the two commands a newcomer runs are `make demo` and `make test` (see README.md).
SHELL := /bin/bash
SWIFT ?= swift
PREFIX ?= /usr/local
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages: what building needs, and what the tests' real components need on top.
BUILD_PACKAGES := pkg-config libvorbis-dev libopusfile-dev libsoxr-dev libogg-dev libltdl-dev libseccomp-dev libpulse-dev libasound2-dev libglib2.0-dev libcurl4-openssl-dev \
	libmicrohttpd-dev libqrencode-dev
# The web delegate's page is tested in headless Chromium driven by Selenium (chromium-driver,
# python3-selenium; Tests/DelegateTests/WebPageTests.swift), and the QR code it prints on a
# terminal is read back with zbarimg (zbar-tools; WebQRCodeTests.swift).
# PipeWire (pipewire, wireplumber, pipewire-pulse; pw-dump from pipewire-bin): Debian 12's desktop
# sound server, which the tests start privately beside PulseAudio (Tests/MotetTestSupport/PipeWireRig.swift).
TEST_PACKAGES := $(BUILD_PACKAGES) gcc make pulseaudio pulseaudio-utils vorbis-tools opus-tools ffmpeg sox dbus dbus-bin \
	dbus-daemon xvfb x11-utils dunst xfce4-notifyd xdotool playerctl alsa-utils python3-jsonschema jq man-db groff-base libglib2.0-bin tmux systemd \
	pipewire pipewire-bin pipewire-pulse wireplumber icecast2 ices2 curl \
	chromium chromium-driver python3-selenium zbar-tools
BENCH_PACKAGES := $(TEST_PACKAGES) mpv time mpd mpc valgrind libsoup-3.0-dev
FUZZ_PACKAGES := $(BUILD_PACKAGES) sox vorbis-tools opus-tools python3
# make deb: debhelper's tools, patchelf for the RUNPATHs, lintian; the package test also renders the
# man page and checks the zsh and fish completions, and runs the player in a D-Bus session.
DEB_PACKAGES := $(BUILD_PACKAGES) dpkg-dev debhelper patchelf lintian man-db groff-base
DEB_TEST_PACKAGES := $(DEB_PACKAGES) gcc make dbus dbus-bin dbus-daemon util-linux zsh fish

# Installs each missing package once; apt-get update only when something is missing.
define apt_install
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "make: installing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	fi
endef

DEBUG_BIN = $(shell $(SWIFT) build --show-bin-path)
RELEASE_BIN = $(shell $(SWIFT) build -c release --show-bin-path)
# --export-dynamic: the sanitizer runtime is linked into the executable only; instrumented plugins
# (Swift delegates) need all its __tsan_* symbols (e.g. __tsan_external_write), which it does not
# export by default, or dlopen(RTLD_NOW) refuses them as "undefined symbol".
TSAN_FLAGS := --sanitize=thread -Xlinker --export-dynamic --scratch-path .build/tsan
# swiftc has no -sanitize=undefined on Linux ("unsupported option"): address only. LeakSanitizer
# reports leaks that are not Motet's (libvorbisfile, XCTest): Tests/lsan.supp says which and why.
ASAN_FLAGS := --sanitize=address -Xlinker --export-dynamic --scratch-path .build/asan

.PHONY: all plugin-host bench-opus bench-crossfade bench-isolation deps deps-test deps-bench bench-wakeups bench-radio deps-fuzz deps-deb deps-deb-test build release demo test test-unit test-tsan test-sanitizers \
	test-asan test-repeat install install-player install-dev deb test-deb bench bench-servers bench-instructions fuzz fuzz-ci test-fuzz clean soak

all: build

deps:
	$(call apt_install,$(BUILD_PACKAGES))

deps-test:
	$(call apt_install,$(TEST_PACKAGES))

deps-bench:
	$(call apt_install,$(BENCH_PACKAGES))

deps-fuzz:
	$(call apt_install,$(FUZZ_PACKAGES))

deps-deb:
	$(call apt_install,$(DEB_PACKAGES))

deps-deb-test:
	$(call apt_install,$(DEB_TEST_PACKAGES))

build: deps
	$(SWIFT) build
	$(MAKE) plugin-host BIN=$(DEBUG_BIN)

# motet-plugin-host, the process each isolated plugin runs in (docs/ISOLATION.md), into BIN=DIR
# beside the motet built there. Plain C built with cc, not by SwiftPM, which links libswiftCore into
# every executable: 3.5 MiB more resident memory per plugin process, and a Swift runtime that is
# not the plugin's own.
PLUGIN_HOST_SOURCES := Sources/motet-plugin-host/main.c Sources/motet-plugin-host/sandbox.c Sources/CPluginWire/plugin_wire.c
PLUGIN_HOST_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -fstack-protector-strong -D_FORTIFY_SOURCE=2 \
	-I Sources/CPluginWire/include -I Sources/MotetPluginABI/include
plugin-host:
	@test -n "$(BIN)" || { echo "make plugin-host: give BIN=DIR" >&2; exit 2; }
	mkdir -p $(BIN)
	$(or $(CC),cc) $(PLUGIN_HOST_CFLAGS) -o $(BIN)/motet-plugin-host $(PLUGIN_HOST_SOURCES) -lltdl -lseccomp -ldl -lpthread

# Our own strictness (warnings as errors) for every target, the plugin kit included: the kit's
# target in Package.swift does not impose it on the packages that depend on it.
release: deps
	$(SWIFT) build -c release -Xswiftc -warnings-as-errors
	$(MAKE) plugin-host BIN=$(RELEASE_BIN)

# Plays the bundled demo track with the log, JSON and notification delegates. Works without a
# sound card (falls back to the null output) and without a desktop (notify says so and steps aside).
demo: release
	$(RELEASE_BIN)/motet --plugin log --plugin json --plugin notify Examples/demo/motet-demo.ogg

# Every test: the debug suite, the same suite under ThreadSanitizer, a part of it under
# AddressSanitizer and LeakSanitizer (test-sanitizers), then every fuzz target for a fixed number
# of executions with a fixed seed (deterministic; see FUZZING.md), then the Debian packages
# installed and run with the Swift toolchain hidden. Each pass's suite has the next pass's build
# beside it at the lowest priority (BUILD_BESIDE, Tests/run-suite.sh): the suites mostly wait on real
# time and leave the cores idle, and the builds on the critical path took 3 of 20 minutes.
test: deps-test
	@start=$$(date +%s); stage() { echo "make test: $$1 took $$(( $$(date +%s) - start )) s"; start=$$(date +%s); }; \
	  $(MAKE) test-unit BUILD_BESIDE='$(SWIFT) build --build-tests $(TSAN_FLAGS)' || exit 1; stage test-unit; \
	  $(MAKE) test-sanitizers ASAN_BESIDE='$(MAKE) test-fuzz' || exit 1; stage test-sanitizers+test-fuzz; \
	  $(MAKE) test-deb || exit 1; stage test-deb

# The TSan suite with the ASan variant and then the release build (which test-deb packages) built
# beside it (BUILD_BESIDE), then the part of the suite that `make test` runs under ASan (ASAN_IN_TEST)
# with ASAN_BESIDE beside it: `make test` runs the fuzz gate there (its time is mostly building the
# harnesses, 90-110 s on 2 cores, while the ASan suite leaves a core idle; its output is in
# .build/test-logs/asan/beside.log, and its failure fails the run).
test-sanitizers: deps-test
	$(MAKE) test-tsan BUILD_BESIDE='$(SWIFT) build --build-tests $(ASAN_FLAGS) && $(MAKE) release'
	$(MAKE) test-asan ASAN_SKIP='$(ASAN_IN_TEST)' ASAN_FIRST='IntegrationTests\.|MPRISTests\.|DelegateTests\.' \
	  BUILD_BESIDE='$(ASAN_BESIDE)'

# Tests/run-suite.sh runs the suite in two processes side by side (most tests wait on real time),
# then the suites that measure time alone; their logs are in .build/test-logs.
test-unit:
	$(SWIFT) build --build-tests
	$(MAKE) plugin-host BIN=$(DEBUG_BIN)
	MOTET_BUILD_DIR=$(DEBUG_BIN) SWIFT=$(SWIFT) BUILD_BESIDE='$(BUILD_BESIDE)' Tests/run-suite.sh .build/test-logs/debug

test-tsan: deps-test
	$(SWIFT) build --build-tests $(TSAN_FLAGS)
	$(MAKE) plugin-host BIN=$$($(SWIFT) build $(TSAN_FLAGS) --show-bin-path)
	MOTET_BUILD_DIR=$$($(SWIFT) build $(TSAN_FLAGS) --show-bin-path) MOTET_SANITIZER=thread \
	  SWIFT=$(SWIFT) BUILD_BESIDE='$(BUILD_BESIDE)' Tests/run-suite.sh .build/test-logs/tsan $(TSAN_FLAGS)

# The whole suite under AddressSanitizer (LeakSanitizer too: a leak fails the test process, and a
# player that leaked exits 1). `make test` leaves out (ASAN_SKIP) the integration suites that do not
# run plugins inside the player, which the debug and TSan passes run, to stay under 20 minutes on
# 2 cores: it runs every in-process module (the plugin host, the delegates, MPRIS) and the player
# with plugins loaded, crashing, flooding commands, built against the installed header; ASAN_FIRST
# gives the MPRIS suites to the first of run-suite.sh's two processes, which balances them.
ASAN_IN_TEST := IntegrationTests\.(?!(PluginPlaybackTests|PluginCrashTests|PluginCommandLineTests|InstalledCPluginTests|TrackEventTests|CommandFloodTests)\b)
test-asan: deps-test
	$(SWIFT) build --build-tests $(ASAN_FLAGS)
	$(MAKE) plugin-host BIN=$$($(SWIFT) build $(ASAN_FLAGS) --show-bin-path)
	MOTET_BUILD_DIR=$$($(SWIFT) build $(ASAN_FLAGS) --show-bin-path) MOTET_SANITIZER=address \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan.supp SKIP='$(ASAN_SKIP)' FIRST='$(ASAN_FIRST)' \
	  SWIFT=$(SWIFT) BUILD_BESIDE='$(BUILD_BESIDE)' Tests/run-suite.sh .build/test-logs/asan $(ASAN_FLAGS)

# Flake hunting: `make test` N times, each in a fresh clone of the current commit, the last BUSY of
# them with one core kept busy; one line per run (time, result, failed tests) in
# .build/test-repeat/summary.tsv. TEST_TARGET=test-unit for a shorter hunt (Tests/repeat-suite.sh).
test-repeat:
	BUSY=$(or $(BUSY),0) TEST_TARGET=$(or $(TEST_TARGET),test) Tests/repeat-suite.sh $(or $(N),5)

# Installs the player, the bundled delegates (as lib/motet/plugins/NAME.so), the man pages and the
# shell completions (generated from the option table by the motet just built), the docs and the
# systemd unit example (install-player); and the public plugin header, its pkg-config file, the
# example C plugin and the Swift kit as a package (install-dev; the header is all there is to the
# ABI, so motet-plugin.pc goes to share/pkgconfig). PREFIX=/usr/local and DESTDIR as
# usual. BIN=DIR installs products already built in DIR instead of building a release (the tests
# install their debug build that way).
INSTALL_BIN = $(or $(BIN),$(RELEASE_BIN))
BUNDLED_PLUGINS := log json notify mpris web
DOC_DIR = $(DESTDIR)$(PREFIX)/share/doc/motet
# The docs as installed in share/doc/motet: README.md and PLUGINS.md with their links rewritten to
# the installed names (each bundled plugin's README is plugins/NAME.md, beside the JSON schemas
# its links name; Examples/motet.conf is motet.conf; the C example is the dev package's:
# ../motet-plugin-dev/examples/c-plugin/), and
# the other documents README.md links to, under their own names. The man pages name /usr: the
# installed ones name PREFIX. Tests/IntegrationTests/InstallTests.swift follows every link.
DOC_LINKS := -e 's|](Examples/motet.conf)|](motet.conf)|g' -e 's|](Examples/c-plugin/)|](../motet-plugin-dev/examples/c-plugin/)|g' \
	-e 's|](Plugins/Log/README.md)|](plugins/log.md)|g' -e 's|](Plugins/JSONFile/README.md)|](plugins/json.md)|g' \
	-e 's|](Plugins/Notify/README.md)|](plugins/notify.md)|g' -e 's|](Plugins/MPRIS/README.md)|](plugins/mpris.md)|g' \
	-e 's|](Plugins/Web/README.md)|](plugins/web.md)|g'
MAN_PREFIX := -e 's|/usr/share/doc/motet|$(PREFIX)/share/doc/motet|g' -e 's|/usr/lib/motet/plugins|$(PREFIX)/lib/motet/plugins|g'
install: install-player install-dev

install-player: $(if $(BIN),,release)
	install -d -m 755 $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/motet/plugins \
	  $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man7 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d $(DOC_DIR)/examples/systemd \
	  $(DOC_DIR)/plugins/schema $(DOC_DIR)/bench $(DOC_DIR)/bench/history $(DOC_DIR)/docs
	install -m 755 $(INSTALL_BIN)/motet $(DESTDIR)$(PREFIX)/bin/motet
	install -d -m 755 $(DESTDIR)$(PREFIX)/libexec/motet
	install -m 755 $(INSTALL_BIN)/motet-plugin-host $(DESTDIR)$(PREFIX)/libexec/motet/motet-plugin-host
	for p in $(BUNDLED_PLUGINS); do \
	  install -m 755 $(INSTALL_BIN)/libmotet-$$p.so $(DESTDIR)$(PREFIX)/lib/motet/plugins/$$p.so || exit 1; done
	$(INSTALL_BIN)/motet --generate man | sed $(MAN_PREFIX) > $(DESTDIR)$(PREFIX)/share/man/man1/motet.1
	$(INSTALL_BIN)/motet --generate plugins-man $(foreach p,$(BUNDLED_PLUGINS),$(INSTALL_BIN)/libmotet-$(p).so) \
	  | sed $(MAN_PREFIX) > $(DESTDIR)$(PREFIX)/share/man/man7/motet-plugins.7
	$(INSTALL_BIN)/motet --generate bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/motet
	$(INSTALL_BIN)/motet --generate zsh > $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_motet
	$(INSTALL_BIN)/motet --generate fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/motet.fish
	chmod 644 $(DESTDIR)$(PREFIX)/share/man/man1/motet.1 $(DESTDIR)$(PREFIX)/share/man/man7/motet-plugins.7 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/motet $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_motet \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/motet.fish
	for f in README.md PLUGINS.md; do sed $(DOC_LINKS) $$f > $(DOC_DIR)/$$f && chmod 644 $(DOC_DIR)/$$f || exit 1; done
	install -m 644 Examples/motet.conf FUZZING.md $(DOC_DIR)/
	install -m 644 bench/RESULTS.md bench/SOAK.md $(DOC_DIR)/bench/
	install -m 644 bench/history/*.md $(DOC_DIR)/bench/history/
	install -m 644 docs/ARCHITECTURE.md docs/BAD-INPUT.md docs/ISOLATION.md $(DOC_DIR)/docs/
	install -m 644 Plugins/Log/README.md $(DOC_DIR)/plugins/log.md
	install -m 644 Plugins/JSONFile/README.md $(DOC_DIR)/plugins/json.md
	install -m 644 Plugins/Notify/README.md $(DOC_DIR)/plugins/notify.md
	install -m 644 Plugins/MPRIS/README.md $(DOC_DIR)/plugins/mpris.md
	install -m 644 Plugins/Web/README.md $(DOC_DIR)/plugins/web.md
	install -m 644 Plugins/JSONFile/schema/*.schema.json $(DOC_DIR)/plugins/schema/
	install -m 644 Examples/systemd/motet-station.service $(DOC_DIR)/examples/systemd/

KIT_DIR = $(DESTDIR)$(PREFIX)/share/motet/swift-kit
# The C example belongs to the package that has the header it builds against (motet-plugin-dev),
# so it goes to that package's doc directory, not to the player's.
DEV_DOC_DIR = $(DESTDIR)$(PREFIX)/share/doc/motet-plugin-dev
install-dev:
	install -d -m 755 $(DESTDIR)$(PREFIX)/include/motet $(DESTDIR)$(PREFIX)/share/pkgconfig \
	  $(DEV_DOC_DIR)/examples/c-plugin \
	  $(KIT_DIR)/Sources/MotetPluginABI/include/motet $(KIT_DIR)/Sources/MotetPluginKit
	install -m 644 Sources/MotetPluginABI/include/motet/plugin.h $(DESTDIR)$(PREFIX)/include/motet/plugin.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' Sources/MotetPluginABI/motet-plugin.pc.in \
	  > $(DESTDIR)$(PREFIX)/share/pkgconfig/motet-plugin.pc
	chmod 644 $(DESTDIR)$(PREFIX)/share/pkgconfig/motet-plugin.pc
	install -m 644 Examples/c-plugin/plugin.c Examples/c-plugin/Makefile $(DEV_DOC_DIR)/examples/c-plugin/
	install -m 644 packaging/swift-kit/Package.swift Plugins/plugin-exports.map $(KIT_DIR)/
	install -m 644 Sources/MotetPluginABI/include/motet/plugin.h $(KIT_DIR)/Sources/MotetPluginABI/include/motet/plugin.h
	install -m 644 Sources/MotetPluginABI/abi.c $(KIT_DIR)/Sources/MotetPluginABI/abi.c
	install -m 644 Sources/MotetPluginKit/*.swift $(KIT_DIR)/Sources/MotetPluginKit/

# The Debian packages motet_VERSION_ARCH.deb and motet-plugin-dev_VERSION_ARCH.deb in .build/deb,
# from the one release build, checked by lintian (packaging/build-deb.sh says how).
DEB_DIR := $(CURDIR)/.build/deb
deb: deps-deb release
	rm -f $(DEB_DIR)/*.deb
	packaging/build-deb.sh $(RELEASE_BIN) $(DEB_DIR)
	lintian --fail-on error,warning $(DEB_DIR)/*.deb

# The packages installed into a scratch root and run with /opt/swift hidden and a clean
# environment: the demo with the four bundled delegates, a C and a Swift plugin built against the
# dev package, the man page, the completions (Tests/Packaging/without-swift.sh).
test-deb: deps-deb-test deb
	Tests/Packaging/without-swift.sh $(DEB_DIR) $(CURDIR)

# Motet against the C decoding limit, oggdec, ogg123 and mpv (untimed and real time, a private
# PulseAudio null sink); prints the medians and writes bench/out/summary.md (see bench/RESULTS.md).
bench: deps-bench release
	MOTET_BUILD_DIR=$(RELEASE_BIN) bench/run.sh

# The same for Ogg Opus: the C loop over op_read_float, opusdec and mpv beside Motet on a 10-minute
# file, and real time against mpv on a 48 kHz null sink; writes bench/out/summary-opus.md.
bench-opus: deps-bench release
	BENCH_CODEC=opus MOTET_BUILD_DIR=$(RELEASE_BIN) bench/run.sh

# Instructions (callgrind, whole process) of motet and of the C loop decoding the 60 s file untimed;
# goal at most +2 % over the loop; writes bench/out/instructions.md (bench/instructions.sh).
bench-instructions: deps-bench release
	MOTET_BUILD_DIR=$(RELEASE_BIN) bench/instructions.sh

# Wake-ups and the sound server's cost of 60 s of real-time playback, beside mpd, mpv and ogg123
# (issue 16; bench/wakeups.sh says what it measures).
bench-wakeups: deps-bench release
	MOTET_BUILD_DIR=$(RELEASE_BIN) bench/wakeups.sh

# The cost of --crossfade (issue 22): 60 s of real-time playback spanning a change of track, with
# --crossfade 5 and without, side by side (CPU-s per minute, wake-ups per second, peak RSS; about
# 13 minutes with BENCH_RUNS=3); writes bench/out/crossfade.md (bench/crossfade.sh).
bench-crossfade: deps-bench release
	MOTET_BUILD_DIR=$(RELEASE_BIN) bench/crossfade.sh

# Motet and mpv on PulseAudio and on PipeWire, in one run: CPU-s per minute and wake-ups per second
# of the player and of the sound server (about 15 minutes); writes bench/out/servers.md.
bench-servers: deps-bench release
	MOTET_BUILD_DIR=$(RELEASE_BIN) bench/servers.sh

# Plugin isolation: per-event latency, a plugin process's RSS, CPU of the four bundled delegates
# isolated against in process, wake-ups with one isolated plugin (bench/isolation.sh).
bench-isolation: deps-bench release
	MOTET_BUILD_DIR=$(RELEASE_BIN) bench/isolation.sh

# Internet radio (issue 13): an Icecast stream for 60 s on null and pulse, Motet against mpv, ogg123
# and Motet on the same songs as local files, with libcurl's floor (bench/radio.sh).
bench-radio: deps-bench release
	MOTET_BUILD_DIR=$(RELEASE_BIN) bench/radio.sh

# The soak (issue 6): 10,000 short tracks untimed with every bundled delegate and a chaos plugin
# sending random commands from four threads; checks event order, RSS, descriptors and threads and
# writes bench/SOAK.md (about 4 minutes on 2 cores). `make soak SOAK_TRACKS=1000` for a short run.
soak: deps-test release
	MOTET_BUILD_DIR=$(RELEASE_BIN) bench/soak.sh

# libFuzzer over the tag, picture, config, --plugin and m3u parsers and whole-file decoding (see
# FUZZING.md). `make fuzz SECONDS_PER_TARGET=600` for a long run; fuzz-ci runs each target 20 s
# (targets two at a time on 2 cores); both fail when a target crashes.
fuzz: deps-fuzz
	bench/fuzz.sh $(or $(SECONDS_PER_TARGET),60)

fuzz-ci: deps-fuzz
	bench/fuzz.sh 20

# The fuzz part of `make test`: seeds only, seed 1, a fixed number of executions per target.
test-fuzz: deps-fuzz
	FUZZ_DIR=$(CURDIR)/.build/fuzz-gate bench/fuzz.sh --fixed

clean:
	rm -rf .build
