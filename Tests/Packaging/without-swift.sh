#!/usr/bin/env bash
# The Debian packages on a machine without Swift (issue 14), run by `make test-deb` (part of
# `make test`). Usage: Tests/Packaging/without-swift.sh DEB_DIR PACKAGE_ROOT
#
# Installs the contents of motet_*.deb and motet-plugin-dev_*.deb into a scratch root, builds
# against the dev package a C plugin (its example), a C plugin stamped with a foreign Swift
# version, and two Swift plugin packages outside the tree (one depending on the installed kit by
# path, one on the Motet source tree), then, in a mount namespace where /opt/swift is an empty
# directory and with a clean environment, plays the demo with the four bundled delegates and those
# plugins, renders `man motet`, and tries the completions. Any missing piece is a failure.
set -euo pipefail
debs=$(realpath "$1")
src=$(realpath "$2")
work=$(mktemp -d "${TMPDIR:-/tmp}/motet-without-swift.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
started=$SECONDS
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
need() { command -v "$1" >/dev/null || { echo "FAIL: $1 is missing (make deps-deb-test installs it)" >&2; exit 1; }; }
for tool in dpkg-deb unshare mount cc pkg-config swift dbus-run-session man zsh fish readelf groff; do need "$tool"; done
[ "$(id -u)" = 0 ] || { echo "FAIL: needs root (unshare -m and mount hide /opt/swift)" >&2; exit 1; }

# 1. Install the packages' contents.
shopt -s nullglob
player_debs=("$debs"/motet_*.deb) dev_debs=("$debs"/motet-plugin-dev_*.deb)
[ ${#player_debs[@]} = 1 ] && [ ${#dev_debs[@]} = 1 ] || { echo "FAIL: expected one motet and one motet-plugin-dev package in $debs" >&2; exit 1; }
dpkg-deb -x "${player_debs[0]}" "$root"
dpkg-deb -x "${dev_debs[0]}" "$root"
plugins=$root/usr/lib/motet/plugins
mkdir -p "$work/home" "$work/run" && chmod 700 "$work/run"

# 2. A C plugin from the dev package's example, through its motet-plugin.pc (sysroot: the scratch
# root stands for /).
export PKG_CONFIG_PATH=$root/usr/share/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root
cp -r "$root/usr/share/doc/motet-plugin-dev/examples/c-plugin" "$work/c-plugin"
make -s -C "$work/c-plugin" >/dev/null
# The same example, its descriptor stamped as if built with another Swift compiler.
sed 's|\.destroy = hello_destroy,|.destroy = hello_destroy,\n    .swift_toolchain = "5.9",|' "$work/c-plugin/plugin.c" > "$work/c-plugin/stale.c"
grep -q 'swift_toolchain = "5.9"' "$work/c-plugin/stale.c" || fail "could not stamp the example"
cc -shared -fPIC -fvisibility=hidden -Wl,-z,defs $(pkg-config --cflags motet-plugin) -o "$work/c-plugin/stale.so" "$work/c-plugin/stale.c"
unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR

# 3. Two Swift plugin packages outside the tree: `.library(type: .dynamic)` depending on the kit's
# product, one on the installed dev package by path, one on the source tree by path.
swift_package() {  # NAME KIT_PATH EXPORT_MAP: the package PLUGINS.md documents
  local dir=$work/$1
  mkdir -p "$dir/Sources"
  cp -r "$src/Tests/Packaging/SwiftPlugin/Sources/HelloSwift" "$dir/Sources/HelloSwift"
  cat > "$dir/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "$1",
    products: [.library(name: "$1", type: .dynamic, targets: ["HelloSwift"])],
    dependencies: [.package(path: "$2")],
    targets: [
        .target(
            name: "HelloSwift",
            dependencies: [.product(name: "MotetPluginKit", package: "$(basename "$2")")],
            linkerSettings: [
                .unsafeFlags([
                    "-no-toolchain-stdlib-rpath",
                    "-Xlinker", "--version-script=$3",
                ]),
            ]),
    ]
)
SWIFT
  (cd "$dir" && swift build -c release 2>&1 | tail -3) || return 1
  [ -f "$dir/.build/release/lib$1.so" ] || return 1
  install -m 755 "$dir/.build/release/lib$1.so" "$plugins/$1.so"
}
# The installed kit is read-only to a plugin author: building must not write into it.
chmod -R a-w "$root/usr/share/motet/swift-kit"
if swift_package hello-installed "$root/usr/share/motet/swift-kit" "$root/usr/share/motet/swift-kit/plugin-exports.map"; then pass "a Swift plugin package builds against the installed dev package"; else fail "the Swift plugin package against the installed kit does not build"; fi
ln -s "$src" "$work/motet"
if swift_package hello-tree "$work/motet" "$work/motet/Plugins/plugin-exports.map"; then pass "a Swift plugin package builds against the source tree"; else fail "the Swift plugin package against the source tree does not build"; fi
needed=$(readelf -d "$plugins/hello-installed.so" | grep NEEDED || true)
grep -q libswift_Concurrency <<<"$needed" || fail "the Swift plugin does not need libswift_Concurrency (not an ordinary plugin?): $needed"
# What a shared object exports: its defined global and weak dynamic symbols.
exported() { readelf --dyn-syms -W "$1" | awk '($5 == "GLOBAL" || $5 == "WEAK") && $7 != "UND" { sub(/@.*/, "", $8); print $8 }' | sort -u | tr '\n' ' '; }
# The documented build: an $ORIGIN-relative RUNPATH (no toolchain path) and only the entry.
for p in hello-installed hello-tree; do
  runpath=$(readelf -d "$plugins/$p.so" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
  [ "$runpath" = '$ORIGIN:$ORIGIN/../swift:/usr/lib/motet/swift' ] && pass "$p: RUNPATH $runpath" || fail "$p: RUNPATH $runpath"
  [ "$(exported "$plugins/$p.so")" = "motet_plugin_entry " ] && pass "$p exports only motet_plugin_entry" \
    || fail "$p exports: $(exported "$plugins/$p.so" | cut -c1-300)"
done

# 4. The player with /opt/swift hidden and a clean environment.
hidden_run() {  # COMMAND... : runs in a private mount namespace where /opt/swift is empty
  unshare -m --propagation private -- /bin/sh -c '
    mkdir -p /opt/swift && mount -t tmpfs -o size=64k,mode=755 none /opt/swift || exit 97
    [ -z "$(ls -A /opt/swift)" ] || exit 98
    home=$0 runtime=$1; shift
    exec env -i PATH=/usr/bin:/bin HOME="$home" XDG_RUNTIME_DIR="$runtime" LANG=C.UTF-8 "$@"' \
    "$work/home" "$work/run" "$@"
}
seen=$(hidden_run /bin/sh -c 'echo "entries=$(ls -A /opt/swift | wc -l)"; command -v swift swiftc' 2>&1 || true)
[ "$seen" = "entries=0" ] && pass "/opt/swift is hidden (empty, no swift on PATH)" || fail "the toolchain is still visible in the namespace: $seen"

demo=$src/Examples/demo/motet-demo.ogg
hidden_run /bin/sh -c 'exec "$@" 2>"$0"' "$work/motet.err" \
  dbus-run-session -- "$root/usr/bin/motet" --no-config --output null --untimed --status events \
  --plugin log:path="$work/log.txt" --plugin json:path="$work/state.json",events="$work/events.jsonl" --plugin notify --plugin mpris \
  --plugin "$work/c-plugin/hello.so:out=$work/c.txt" \
  --plugin hello-installed:out="$work/installed.txt" --plugin hello-tree:out="$work/tree.txt" "$demo" \
  && status=0 || status=$?
err=$(cat "$work/motet.err")
[ "$status" = 0 ] && pass "the installed motet plays the demo without Swift" || fail "motet exited $status: $err"
grep -q 'now-playing title="Motet Demo"' "$work/log.txt" 2>/dev/null && pass "log delegate" || fail "log delegate wrote: $(cat "$work/log.txt" 2>&1)"
grep -q '"Motet Demo"' "$work/events.jsonl" 2>/dev/null && [ -s "$work/state.json" ] && pass "json delegate" \
  || fail "json delegate wrote: $(cat "$work/events.jsonl" 2>&1)"
# The host names each plugin it could not start ("motet: plugin NAME: FILE: reason").
for p in log json notify mpris hello hello-installed hello-tree; do
  grep -q "^motet: plugin $p:" <<<"$err" && fail "plugin $p did not start: $err"
done
# notify has no notification server here (a private session bus, no display): it says so in one
# line and steps aside; mpris takes its name on that bus.
grep -q "^notify: warning: desktop notifications are off" <<<"$err" && pass "notify delegate loaded" || fail "notify said: $err"
grep -q "^mpris: MPRIS: on the session bus" <<<"$err" && pass "mpris delegate loaded" || fail "mpris said: $err"
grep -q "now playing: title=Motet Demo" "$work/c.txt" 2>/dev/null && pass "C plugin built against the dev package" || fail "C plugin wrote: $(cat "$work/c.txt" 2>&1)"
for p in installed tree; do
  grep -q "now playing: The Motet Players — Motet Demo" "$work/$p.txt" 2>/dev/null && grep -q "shutting down" "$work/$p.txt" \
    && pass "Swift plugin (kit from the $p package) loaded and ran" || fail "Swift plugin hello-$p wrote: $(cat "$work/$p.txt" 2>&1); motet said: $err"
done
# One Swift runtime in the process: the host's private copy, shared by both Swift plugins.
for p in installed tree; do
  runtimes=$(grep "^swift runtime: " "$work/$p.txt" 2>/dev/null | sed 's/^swift runtime: //' | tr '\n' ' ')
  [ "$runtimes" = "$root/usr/lib/motet/swift/libswiftCore.so " ] && pass "hello-$p shares the host's one Swift runtime" \
    || fail "hello-$p sees Swift runtimes: $runtimes"
done
# A plugin stamped with another Swift version, named on the command line, in motet's process
# (--plugin-isolation never), where it would share motet's one Swift runtime: refused in one line,
# and motet ends before it plays (exit 64, as for any --plugin that cannot load). In a process of
# its own (the default for a plugin from elsewhere) it has a runtime of its own, and plays.
hidden_run "$root/usr/bin/motet" --no-config --output null --untimed --status quiet --plugin-isolation never \
  --plugin "$work/c-plugin/stale.so" "$demo" 2>"$work/stale.err" && status=0 || status=$?
err=$(cat "$work/stale.err")
refusals=$(grep -c "refused: built with Swift 5.9" <<<"$err" || true)
[ "$refusals" = 1 ] && [ "$status" = 64 ] && pass "a plugin stamped with another Swift version is refused in one line in motet's process (exit 64)" \
  || fail "stale plugin: expected one refusal line and exit 64, got $status: $err"
hidden_run "$root/usr/bin/motet" --no-config --output null --untimed --status quiet \
  --plugin "$work/c-plugin/stale.so" "$demo" 2>"$work/stale.err" && status=0 || status=$?
err=$(cat "$work/stale.err")
[ "$status" = 0 ] && grep -q "hello\[stale\]: shutting down" <<<"$err" \
  && pass "isolated, the same plugin runs in a process of its own (installed motet-plugin-host)" \
  || fail "stale plugin isolated: expected it to run, got $status: $err"

# 5. The shipped binaries: motet needs only the libraries it calls (linked --as-needed); each
# bundled plugin has its installed name as SONAME (so no build path is recorded in
# .gnu.version_d) and exports only its entry; the installed motet searches no build tree.
needed=$(readelf -d "$root/usr/bin/motet" | grep NEEDED || true)
unused=$(for lib in libogg.so.0 libvorbis.so.0 libopus.so.0 libswiftSynchronization.so; do
  if grep -q "\[$lib\]" <<<"$needed"; then echo "$lib"; fi; done | tr '\n' ' ')
[ -z "$unused" ] && grep -q "\[libvorbisfile.so.3\]" <<<"$needed" && grep -q "\[libopusfile.so.0\]" <<<"$needed" && pass "motet needs only the libraries it calls" \
  || fail "motet needs libraries it does not call: $unused"
shipped=0
for p in log json notify mpris web; do
  so=$plugins/$p.so
  soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  [ "$soname" = "$p.so" ] || fail "$p.so: SONAME '$soname', expected $p.so"
  base=$(readelf -V "$so" | sed -n 's/.*Flags: BASE.*Name: //p')
  [ "$base" = "$p.so" ] || fail "$p.so: .gnu.version_d names '$base' (a build path?)"
  [ "$(exported "$so")" = "motet_plugin_entry " ] || fail "$p.so exports $(exported "$so" | wc -w) symbols: $(exported "$so" | cut -c1-200)"
  if [ "$soname" = "$p.so" ] && [ "$base" = "$p.so" ] && [ "$(exported "$so")" = "motet_plugin_entry " ]; then
    shipped=$((shipped + 1))
  fi
done
[ "$shipped" = 5 ] && pass "the bundled plugins have a SONAME and export only motet_plugin_entry" \
  || fail "$((5 - shipped)) bundled plugin(s) lack a SONAME or export more than motet_plugin_entry"
listing=$(hidden_run "$root/usr/bin/motet" --no-config --list-plugins 2>&1 || true)
grep -q "build tree" <<<"$listing" && fail "the installed motet searches a build tree: $(grep 'build tree' <<<"$listing")" \
  || pass "the installed motet searches no build tree"

# 6. The man pages render, without Swift too, and groff has nothing to warn about.
for page in "$root/usr/share/man/man1/motet.1"* "$root/usr/share/man/man7/motet-plugins.7"*; do
  warnings=$(zcat -f "$page" | groff -ww -man -z 2>&1)
  [ -z "$warnings" ] && pass "groff -ww: ${page#"$root"} is clean" || fail "groff -ww ${page#"$root"}: $warnings"
done
for page in "motet" "7 motet-plugins"; do
  hidden_run env MANPATH="$root/usr/share/man" MANWIDTH=80 man -P cat $page > "$work/man.txt" 2>&1 || true
  grep -q "SYNOPSIS\|DESCRIPTION" "$work/man.txt" && pass "man $page renders" || fail "man $page: $(head -5 "$work/man.txt")"
done
grep -q -- "--plugin-dir" <(hidden_run env MANPATH="$root/usr/share/man" man -P cat motet 2>/dev/null) || fail "motet(1) lacks --plugin-dir"
grep -q -- "interval=seconds" <(hidden_run env MANPATH="$root/usr/share/man" man -P cat 7 motet-plugins 2>/dev/null) \
  && pass "motet-plugins(7) lists the plugins' own options" || fail "motet-plugins(7) lacks json's interval=seconds"
# Every relative link of the installed docs resolves (each plugin's README is plugins/NAME.md).
links=0
while IFS= read -r page; do
  while IFS= read -r target; do
    links=$((links + 1))
    [ -e "$(dirname "$page")/$target" ] || fail "${page#"$root"} links to $target, which the packages do not ship"
  done < <(grep -o '](\([^)]*\))' "$page" | sed 's/^](//; s/)$//; s/#.*//' | grep -v -e '://' -e '^mailto:' -e '^$' || true)
done < <(find "$root/usr/share/doc/motet" -name '*.md')
[ "$links" -ge 10 ] && pass "the installed docs' $links links resolve" || fail "only $links links found in the installed docs"

# 7. Completions: bash offers outputs, plugin names and option keys; zsh
# and fish parse. TAB loads no plugin: a plugin whose constructor would leave a mark sits in the
# plugin directory meanwhile.
cat > "$work/tripwire.c" <<C
#include <stdio.h>
__attribute__((constructor)) static void loaded(void) { FILE *f = fopen("$work/tripped", "w"); if (f) fclose(f); }
C
cc -shared -fPIC -o "$plugins/tripwire.so" "$work/tripwire.c"
complete_words() {  # WORDS...: what bash offers for the last word
  hidden_run /bin/bash -c 'source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _motet; printf "%s\n" "${COMPREPLY[@]}"' \
    "$root/usr/share/bash-completion/completions/motet" "$@"
}
outputs=$(complete_words "$root/usr/bin/motet" --output w | sort | tr '\n' ' ')
[ "$outputs" = "wav-float: wav: " ] && pass "bash completes --output values" || fail "bash --output w offered: $outputs"
outputs=$(complete_words "$root/usr/bin/motet" --output = w | sort | tr '\n' ' ')
[ "$outputs" = "wav-float: wav: " ] && pass "bash completes --output=values" || fail "bash --output=w offered: $outputs"
names=$(complete_words "$root/usr/bin/motet" --plugin "" | sort | tr '\n' ' ')
[ "$names" = "hello-installed hello-tree json log mpris notify tripwire web " ] && pass "bash completes plugin names from the search path" \
  || fail "bash --plugin offered: $names"
[ ! -e "$work/tripped" ] && pass "completing loaded no plugin" || fail "completion loaded a plugin"
fish_names=$(hidden_run fish -c "source $root/usr/share/fish/vendor_completions.d/motet.fish; complete -C '$root/usr/bin/motet --plugin '" | cut -f1 | sort | tr '\n' ' ')
[ "$fish_names" = "hello-installed hello-tree json log mpris notify tripwire web " ] && pass "fish completes plugin names" || fail "fish --plugin offered: $fish_names"
[ ! -e "$work/tripped" ] && pass "completing loaded no plugin" || fail "completion loaded a plugin"
rm -f "$plugins/tripwire.so"
# TAB after `--plugin json:` offers json's keys with no --list-plugins run first (the first TAB
# looks at json in a child and caches what it describes), in bash and fish; yes/no after a
# yes/no key.
rm -rf "$work/home/.cache/motet"
keys=$(complete_words "$root/usr/bin/motet" --plugin json : "" | sort | tr '\n' ' ')
[ "$keys" = "events= interval= path= " ] && pass "bash completes json's option keys (no --list-plugins first)" \
  || fail "bash --plugin json: offered: $keys"
answers=$(complete_words "$root/usr/bin/motet" --plugin notify : actions = "" | sort | tr '\n' ' ')
[ "$answers" = "no yes " ] && pass "bash offers yes/no for a yes/no key" || fail "bash --plugin notify:actions= offered: $answers"
fish_keys=$(hidden_run fish -c "source $root/usr/share/fish/vendor_completions.d/motet.fish; complete -C '$root/usr/bin/motet --plugin json:in'" | cut -f1)
[ "$fish_keys" = "json:interval=" ] && pass "fish completes json's option keys" || fail "fish --plugin json:in offered: $fish_keys"
zsh -n "$root/usr/share/zsh/vendor-completions/_motet" && pass "zsh completion parses" || fail "zsh completion does not parse"
fish -n "$root/usr/share/fish/vendor_completions.d/motet.fish" && pass "fish completion parses" || fail "fish completion does not parse"
fish_outputs=$(fish -c "source $root/usr/share/fish/vendor_completions.d/motet.fish; complete -C 'motet --output w'" 2>&1 | cut -f1 | sort | tr '\n' ' ')
[ "$fish_outputs" = "wav-float: wav: " ] && pass "fish completes --output values" || fail "fish --output w offered: $fish_outputs"

echo "without-swift: $((SECONDS - started)) s, $failures failure(s)"
[ "$failures" = 0 ]
