#!/usr/bin/env bash
# Builds motet_VERSION_ARCH.deb and motet-plugin-dev_VERSION_ARCH.deb from a release build, with
# debhelper's tools (dh_strip, dh_compress, dh_shlibdeps, dh_gencontrol, dh_builddeb…), then runs
# lintian on both. Usage: packaging/build-deb.sh RELEASE_BIN_DIR OUT_DIR
#
# The Swift runtime the player and its plugins need is copied from the toolchain into the private
# /usr/lib/motet/swift, and every RUNPATH is rewritten $ORIGIN-relative (patchelf), so the package
# runs on a Debian 12 without Swift. Not static: a Swift plugin must share the host's one runtime.
set -euo pipefail
bin=$(realpath "$1")
out=$(mkdir -p "$2" && realpath "$2")
root=$(cd "$(dirname "$0")/.." && pwd)
version=$("$bin/motet" --version | sed -n 's/^motet \([^ ]*\) .*/\1/p')
arch=$(dpkg --print-architecture)
swift_lib=$(dirname "$(realpath "$(command -v swiftc)")")/../lib/swift/linux

# The runtime: what the player and the bundled delegates link, and what an ordinary Swift plugin
# built with `swift build` (implicit _Concurrency and _StringProcessing imports, debug builds'
# Onone support, Dispatch) needs beyond it. No Foundation: the kit does not use it.
runtime=(libswiftCore.so libswiftGlibc.so libswiftSynchronization.so libswift_Builtin_float.so
  libswift_Concurrency.so libdispatch.so libBlocksRuntime.so libswiftDispatch.so
  libswift_StringProcessing.so libswift_RegexParser.so libswiftSwiftOnoneSupport.so)

work=$(mktemp -d "${TMPDIR:-/tmp}/motet-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$root/packaging/debian" "$work/debian"
sed -e "s/@VERSION@/$version/" -e "s/@DATE@/$(date -R -d @"${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)}")/" \
  "$work/debian/changelog.in" > "$work/debian/changelog"
rm "$work/debian/changelog.in"

player=$work/debian/motet
dev=$work/debian/motet-plugin-dev
make -s -C "$root" install-player DESTDIR="$player" PREFIX=/usr BIN="$bin"
make -s -C "$root" install-dev DESTDIR="$dev" PREFIX=/usr BIN="$bin"

install -d -m 755 "$player/usr/lib/motet/swift"
for lib in "${runtime[@]}"; do install -m 644 "$swift_lib/$lib" "$player/usr/lib/motet/swift/$lib"; done
patchelf --set-rpath '$ORIGIN/../lib/motet/swift' "$player/usr/bin/motet"
for so in "$player"/usr/lib/motet/plugins/*.so; do patchelf --set-rpath '$ORIGIN/../swift' "$so"; done
for so in "$player"/usr/lib/motet/swift/*.so; do
  if [ -n "$(patchelf --print-rpath "$so")" ]; then patchelf --set-rpath '$ORIGIN' "$so"; fi
done

cd "$work"
export DEB_BUILD_OPTIONS="noautodbgsym${DEB_BUILD_OPTIONS:+ $DEB_BUILD_OPTIONS}" DH_QUIET=1
dh_testdir
dh_installdocs
dh_installchangelogs
dh_lintian
dh_strip
# The example stays buildable where it is; the documents the docs link to keep the names the
# links use (make install rewrote the links to the installed names).
dh_compress -Xexamples/c-plugin -X.md -X.schema.json -Xmotet.conf
dh_fixperms
dh_shlibdeps -l"$player/usr/lib/motet/swift"
dh_installdeb
dh_gencontrol
dh_md5sums
dh_builddeb --destdir="$out"
echo "$out/motet_${version}_${arch}.deb"
echo "$out/motet-plugin-dev_${version}_all.deb"
