#!/usr/bin/env bash
# Runs the built player on every kind of bad input from issue 6 and writes the table in
# docs/BAD-INPUT.md (what the user sees, exit code, whether playback goes on, whether a file is
# left half-written).
#
#   MOTET_BUILD_DIR=/path/to/debug bench/bad-input.sh [OUTPUT.md]
#
# Every case runs `motet --output wav:OUT --untimed --no-config --status events BAD good.ogg`
# (the good track after the bad input shows whether playback goes on), with a 60 s limit (a hang
# shows as exit 124). Needs sox, vorbis-tools, opus-tools, python3 and cc. Run as root: the "unreadable" case
# runs the player as nobody (setpriv), and the disk-full and read-only cases mount small tmpfs file
# systems (unmounted on exit).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUILD=${MOTET_BUILD_DIR:-$(swift build --show-bin-path)}
MOTET=$BUILD/motet
OUT_MD=${1:-$ROOT/docs/BAD-INPUT.md}
[ -x "$MOTET" ] || { echo "bad-input.sh: no motet in $BUILD (set MOTET_BUILD_DIR)" >&2; exit 2; }
[ -x "$BUILD/motet-plugin-host" ] || { echo "bad-input.sh: no motet-plugin-host in $BUILD: run make plugin-host BIN=$BUILD" >&2; exit 2; }
W=$(mktemp -d /tmp/motet-bad-input.XXXXXX)
chmod 755 "$W"
MOUNTS=()
trap 'for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null || umount -l "$m"; done; rm -rf "$W"' EXIT
F=$W/files
mkdir -p "$F" "$W/plugins"
chmod 755 "$F" "$W/plugins"

# ---------------------------------------------------------------- fixtures
tone() {  # tone NAME SECONDS FREQ SERIAL
    sox -q -n -r 44100 -c 2 -b 16 "$W/$1.wav" synth "$2" sine "$3" gain -6
    oggenc -Q -s "$4" -o "$F/$1.ogg" "$W/$1.wav" 2>/dev/null
}
tone good 0.5 440 1001
tone other 0.5 660 1002
tone third 0.5 550 1003
tone long 5 330 1004
: >"$F/empty.ogg"
mkdir -p "$F/emptydir"
cp "$F/good.ogg" "$F/unreadable.ogg" && chmod 000 "$F/unreadable.ogg"
echo "this is a text file, not music" >"$F/text.ogg"
head -c $(( $(stat -c %s "$F/long.ogg") / 2 )) "$F/long.ogg" >"$F/truncated.ogg"
mkfifo "$F/fifo.ogg"
opus() {  # opus NAME SECONDS CHANNELS SERIAL: pink noise, 48 kHz
    sox -q -n -r 48000 -c "$3" -b 16 "$W/$1.wav" synth "$2" pinknoise gain -6
    opusenc --quiet --serial "$4" "$W/$1.wav" "$F/$1.opus"
}
opus long-opus 5 2 2001
opus short-opus 0.5 2 2002
opus ten-channels 0.5 10 2003
head -c $(( $(stat -c %s "$F/long-opus.opus") * 7 / 8 )) "$F/long-opus.opus" >"$F/truncated.opus"
cat "$F/short-opus.opus" "$F/good.ogg" >"$F/opus-then-vorbis.opus"
cat "$F/other.ogg" "$F/short-opus.opus" >"$F/vorbis-then-opus.ogg"

python3 - "$F" <<'PY'
import os, random, struct, sys
F = sys.argv[1]
TABLE = []
for i in range(256):
    c = i << 24
    for _ in range(8):
        c = ((c << 1) ^ 0x04C11DB7) & 0xFFFFFFFF if c & 0x80000000 else (c << 1) & 0xFFFFFFFF
    TABLE.append(c)
def crc(data):
    c = 0
    for b in data:
        c = ((c << 8) & 0xFFFFFFFF) ^ TABLE[(c >> 24) ^ b]
    return c
def pages(data):
    out, i = [], 0
    while i < len(data):
        assert data[i:i+4] == b"OggS", i
        n = data[i+26]
        seg = data[i+27:i+27+n]
        size = 27 + n + sum(seg)
        out.append(bytearray(data[i:i+size]))
        i += size
    return out
def body_offset(p): return 27 + p[26]
def fix(p):
    p[22:26] = b"\0\0\0\0"
    p[22:26] = struct.pack("<I", crc(bytes(p)))
    return p
def page(flags, serial, seq, body, granule=0):
    segs = [255] * (len(body) // 255) + [len(body) % 255]
    h = b"OggS" + bytes([0, flags]) + struct.pack("<qII", granule, serial, seq) + b"\0\0\0\0" + bytes([len(segs)]) + bytes(segs)
    return bytes(fix(bytearray(h + body)))
def with_comments(data, comments):
    """The file with its first link's comment packet replaced by exactly these raw comments."""
    ps = pages(data)
    serial = ps[0][14:18]
    packets, current, last = [], b"", None
    for index, p in enumerate(ps):
        if p[14:18] != serial: continue
        n = p[26]; lacing = p[27:27+n]; pos = 27 + n
        for l in lacing:
            current += bytes(p[pos:pos+l]); pos += l
            if l < 255:
                packets.append(current); current = b""
        if len(packets) >= 3:
            last = index; break
    assert last is not None and current == b""
    vendor = b"Xiph.Org libVorbis I 20200704 (Reducing Environment)"
    body = b"\x03vorbis" + struct.pack("<I", len(vendor)) + vendor + struct.pack("<I", len(comments))
    for c in comments: body += struct.pack("<I", len(c)) + c
    body += b"\x01"
    segments = []  # (bytes, ends_packet)
    for packet in (body, packets[2]):
        for i in range(0, len(packet) // 255 + 1):
            chunk = packet[i*255:(i+1)*255]
            segments.append((chunk, len(chunk) < 255))
    out = [bytes(ps[0])]
    seq, continued = 1, False
    for i in range(0, len(segments), 255):
        group = segments[i:i+255]
        lacing = bytes(len(c) for c, _ in group)
        granule = 0 if group[-1][1] else -1
        h = b"OggS" + bytes([0, 1 if continued else 0]) + struct.pack("<q", granule) + bytes(serial) + struct.pack("<I", seq) + b"\0\0\0\0" + bytes([len(group)]) + lacing
        out.append(bytes(fix(bytearray(h + b"".join(c for c, _ in group)))))
        continued = not group[-1][1]; seq += 1
    for p in ps[last+1:]:
        if p[14:18] == serial:
            p[18:22] = struct.pack("<I", seq); seq += 1; fix(p)
        out.append(bytes(p))
    return b"".join(out)
good = open(f"{F}/good.ogg", "rb").read()
other = open(f"{F}/other.ogg", "rb").read()
long = open(f"{F}/long.ogg", "rb").read()
# Ogg Opus with its two headers and no audio.
opus = b"OpusHead" + bytes([1, 2]) + struct.pack("<HIhB", 312, 48000, 0, 0)
open(f"{F}/opus-in-ogg.ogg", "wb").write(page(2, 1234, 0, opus) + page(4, 1234, 1, b"OpusTags" + struct.pack("<I", 0) + struct.pack("<I", 0)))
# Garbage in the middle: 1 KiB of random bytes over the middle of a 5 s file (about 18 KB).
random.seed(6)
mid = len(long) // 2
open(f"{F}/garbage-middle.ogg", "wb").write(long[:mid] + bytes(random.randrange(256) for _ in range(1024)) + long[mid + 1024:])
long_opus = open(f"{F}/long-opus.opus", "rb").read()
mid = len(long_opus) // 2
open(f"{F}/garbage-middle.opus", "wb").write(long_opus[:mid] + bytes(random.randrange(256) for _ in range(1024)) + long_opus[mid + 1024:])
# Chains good + damaged link + good: the link's identification header says "vorbiz" (CRC right);
# its setup header has 64 bytes overwritten (CRC right); the link is cut in half.
third = open(f"{F}/third.ogg", "rb").read()
ps = pages(other)
b = body_offset(ps[0]); ps[0][b + 6] = ord("z"); fix(ps[0])
open(f"{F}/bad-link-id.ogg", "wb").write(good + b"".join(ps) + third)
ps = pages(other)
p = ps[1]; b = body_offset(p); mid = b + (len(p) - b) * 3 // 4
p[mid:mid+64] = bytes(random.randrange(256) for _ in range(64)); fix(p)
open(f"{F}/bad-link-setup.ogg", "wb").write(good + b"".join(ps) + third)
# The same, but the links around the damaged one are one file twice (same serial number).
open(f"{F}/bad-link-same-serial.ogg", "wb").write(good + b"".join(ps) + good)
open(f"{F}/bad-link-cut.ogg", "wb").write(good + long[:len(long) // 2] + third)
# Absurd comment lengths, written in place (the packet keeps its size, CRCs are recomputed).
def comment_variant(name, edit):
    ps = pages(good)
    p = ps[1]; b = body_offset(p)
    assert p[b:b+7] == b"\x03vorbis"
    edit(p, b)
    fix(p)
    open(f"{F}/{name}.ogg", "wb").write(b"".join(ps))
def vendor(p, b): p[b+7:b+11] = struct.pack("<I", 0xFFFFFFF0)
def count(p, b):
    v = struct.unpack("<I", p[b+7:b+11])[0]; p[b+11+v:b+15+v] = struct.pack("<I", 0x7FFFFFFF)
comment_variant("huge-vendor-length", vendor)
comment_variant("huge-comment-count", count)
def length(p, b):
    v = struct.unpack("<I", p[b+7:b+11])[0]; p[b+15+v:b+19+v] = struct.pack("<I", 0xFFFFFFF0)
open(f"{F}/huge-comment-length.ogg", "wb").write(with_comments(good, [b"TITLE=x", b"ARTIST=y"]))
good_tagged = open(f"{F}/huge-comment-length.ogg", "rb").read()
ps = pages(good_tagged); p = ps[1]; b = body_offset(p); length(p, b); fix(p)
open(f"{F}/huge-comment-length.ogg", "wb").write(b"".join(ps))
open(f"{F}/badutf8.ogg", "wb").write(with_comments(good, [b"TITLE=caf\xc3 \xff\xfe bad", b"ARTIST=\xed\xa0\x80surrogate", b"ALBUM=ok\xf4\x90\x80\x80"]))
open(f"{F}/controls.ogg", "wb").write(with_comments(good, [b"TITLE=\x1b[2J\x1b]0;pwned\x07clear\rCR\x08BS\nNL", b"ARTIST=tab\there\x00nul", b"ALBUM=\xc2\x9bCSI 8-bit \xe2\x80\xaeRTL override"]))
# A playlist that includes itself (and the good track), and one that includes the other, twice over.
open(f"{F}/self.m3u", "w").write("self.m3u\ngood.ogg\n")
open(f"{F}/a.m3u", "w").write("b.m3u\n")
open(f"{F}/b.m3u", "w").write("a.m3u\nother.ogg\n")
# A 50 MB picture (PNG signature, random bytes) as METADATA_BLOCK_PICTURE.
import base64
png = b"\x89PNG\r\n\x1a\n" + os.urandom(50 * 1000 * 1000)
blk = struct.pack(">II", 3, 9) + b"image/png" + struct.pack(">IIIIII", 0, 1, 1, 24, 0, len(png)) + png
open(f"{F}/bigpic.txt", "wb").write(b"TITLE=Big picture\nMETADATA_BLOCK_PICTURE=" + base64.b64encode(blk) + b"\n")
PY
cp "$F/good.ogg" "$F/bigpic.ogg"
vorbiscomment -w -R -c "$F/bigpic.txt" "$F/bigpic.ogg"
rm -f "$F/bigpic.txt"
cp "$F/good.ogg" "$F/good-copy.ogg"

# Configs.
printf 'volume\n' >"$W/no-equals.conf"
printf 'output = null\n[plugin log\n' >"$W/bad-section.conf"
printf 'colour = blue\n' >"$W/unknown-key.conf"

# Plugins: not a shared object, unresolved symbol, wrong ABI, crash in create.
echo "not an ELF file" >"$W/plugins/libmotet-text.so"
INC=$ROOT/Sources/MotetPluginABI/include
plugin() {  # plugin NAME C-BODY
    printf '#include <motet/plugin.h>\n#include <stddef.h>\n#include <signal.h>\n%s\n' "$2" >"$W/$1.c"
    cc -shared -fPIC -I "$INC" -o "$W/plugins/libmotet-$1.so" "$W/$1.c"
}
DESC='static void ev(void *i, const motet_event *e) { (void)i; (void)e; }
static void de(void *i) { (void)i; }
static const motet_plugin_descriptor d = { sizeof(motet_plugin_descriptor), ABI, 0, 0, "org.example.bad", "bad", "1", "bad", CREATE, ev, de };
__attribute__((visibility("default"))) const motet_plugin_descriptor *motet_plugin_entry(uint32_t a, uint32_t b) { (void)a; (void)b; ENTRY; return &d; }'
OKCREATE='static int32_t cr(const motet_host *h, const motet_option *o, uint32_t n, void **out) { (void)h; (void)o; (void)n; *out = NULL; return MOTET_OK; }'
plugin unresolved "#define ABI 1
#define CREATE cr
#define ENTRY motet_missing_function()
void motet_missing_function(void);
$OKCREATE
$DESC"
plugin wrongabi "#define ABI 2
#define CREATE cr
#define ENTRY (void)0
$OKCREATE
$DESC"
plugin crashcreate "#define ABI 1
#define CREATE cr
#define ENTRY (void)0
static int32_t cr(const motet_host *h, const motet_option *o, uint32_t n, void **out) { (void)h; (void)o; (void)n; (void)out; *(volatile int *)16 = 1; return MOTET_OK; }
$DESC"
plugin failcreate "#define ABI 1
#define CREATE cr
#define ENTRY (void)0
static int32_t cr(const motet_host *h, const motet_option *o, uint32_t n, void **out) { (void)o; (void)n; (void)out; h->log(h, MOTET_LOG_ERROR, \"cannot start: no widget\"); return MOTET_ERROR; }
$DESC"
chmod 644 "$W"/plugins/*.so

# ---------------------------------------------------------------- running
ROWS=()
md() {  # one table cell: | and newlines escaped, control characters shown as \xNN
    python3 -c 'import sys
t = sys.stdin.buffer.read().decode("utf-8", "backslashreplace").rstrip("\n")
out = "".join(c if (ord(c) >= 0x20 and not 0x7f <= ord(c) < 0xa0) or c == "\n" else "\\x%02x" % ord(c) for c in t)
lines = out.split("\n")
if len(lines) > 6: lines = lines[:4] + ["… %d lines in all" % len(lines)]
print("<br>".join("`" + l.replace("|", "\\|").replace("`", "ʼ") + "`" for l in lines) if out else "(nothing)")'
}
wav_state() {  # complete | absent | HALF: why
    python3 - "$1" <<'PY'
import os, struct, sys
p = sys.argv[1]
if not os.path.exists(p): print("no file"); sys.exit()
d = open(p, "rb").read()
if len(d) < 44 or d[:4] != b"RIFF" or d[8:12] != b"WAVE": print("HALF: no WAV header (%d bytes)" % len(d)); sys.exit()
riff = struct.unpack("<I", d[4:8])[0]
i, data = 12, None
while i + 8 <= len(d):
    cid, size = d[i:i+4], struct.unpack("<I", d[i+4:i+8])[0]
    if cid == b"data": data = size; break
    i += 8 + size + (size & 1)
if data is None: print("HALF: no data chunk"); sys.exit()
if riff != len(d) - 8 or data != len(d) - i - 8: print("HALF: header says %d+%d, file has %d" % (riff, data, len(d))); sys.exit()
print("complete WAV, %.2f s" % (data / 176400) if data else "complete WAV, no samples")
PY
}

# case TITLE EXPECT_GOOD(yes/no/-) [AS_NOBODY] -- motet arguments (OUT is replaced by the WAV path)
case_() {
    local title=$1 expect=$2 nobody=no
    shift 2
    [ "$1" = nobody ] && { nobody=yes; shift; }
    [ "$1" = -- ] && shift
    local dir
    dir=$(mktemp -d "$W/run.XXXXXX"); chmod 777 "$dir"
    local args=() a
    for a in "$@"; do args+=("${a//OUT/$dir/out.wav}"); done
    local runner=(timeout -k 5 60)
    [ "$nobody" = yes ] && [ "$(id -u)" = 0 ] && runner+=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    (cd "$dir" && "${runner[@]}" "$MOTET" "${args[@]}" >"$dir/stdout" 2>"$dir/stderr" </dev/null)
    local rc=$?
    local shown
    shown=$(printf '%s ' "${args[@]}" | sed -e "s|$dir/out.wav|out.wav|g" -e "s|$F/||g" -e "s|$W/plugins|PLUGINS|g" -e "s|$W/||g")
    local played="-"
    if [ "$expect" != - ]; then
        # The good track's title: its file name without .ogg (untagged), as the player shows it.
        if grep -Eq '^Finished: (.*/)?good(\.ogg)? \(ok, completed\)' "$dir/stdout"; then played=yes; else played=no; fi
    fi
    local lines problems=()
    lines=$(grep -c '' "$dir/stderr")
    [ "$lines" -gt 2 ] && problems+=("$lines lines on stderr")
    [ $rc -ge 124 ] && problems+=("exit $rc ($( [ $rc = 124 ] && echo hang || echo "signal $((rc - 128))"))")
    [ "$expect" = yes ] && [ "$played" = no ] && problems+=("the good track after it did not play")
    if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$dir/stdout" "$dir/stderr"; then problems+=("raw control characters printed"); fi
    local wav f
    if [ -n "${OUTPUT_DIR:-}" ]; then  # the output is elsewhere (a tmpfs): show every file there
        wav=""
        for f in "$OUTPUT_DIR"/*; do
            [ -e "$f" ] && [ "${f##*/}" != filler ] && wav+="${wav:+; }${f##*/}: $(wav_state "$f")"
        done
        [ -n "$wav" ] || wav="no file"
    else
        wav=$(wav_state "$dir/out.wav")
    fi
    [[ $wav == HALF* ]] && problems+=("$wav")
    local stdout_cell
    stdout_cell=$(grep -Ev '^State: |^Finished: (.*/)?good(\.ogg)? \(|^Playing: good(\.ogg)?( |$)' "$dir/stdout" | sed -e "s|$F/||g" | md)
    ROWS+=("| $title | \`motet … ${shown% }\` | $(sed -e "s|$F/||g" -e "s|$W/plugins|PLUGINS|g" -e "s|$W/||g" -e "s|$(dirname "$BUILD")/|BUILD/|g" -e "s|$HOME/|~/|g" "$dir/stderr" | md) | $stdout_cell | $rc | $played | $wav | ${problems[*]:-none} |")
    echo "bad-input.sh: $title: exit $rc, $lines line(s) on stderr${problems:+, PROBLEM: ${problems[*]}}" >&2
}

C=(--output wav:OUT --untimed --no-config --status events)
case_ "missing file" yes -- "${C[@]}" "$F/missing.ogg" "$F/good.ogg"
case_ "unreadable file (mode 000, run as nobody)" yes nobody -- "${C[@]}" "$F/unreadable.ogg" "$F/good.ogg"
case_ "empty file" yes -- "${C[@]}" "$F/empty.ogg" "$F/good.ogg"
case_ "empty directory" yes -- "${C[@]}" "$F/emptydir" "$F/good.ogg"
case_ "a FIFO" yes -- "${C[@]}" "$F/fifo.ogg" "$F/good.ogg"
case_ "not Ogg (a text file)" yes -- "${C[@]}" "$F/text.ogg" "$F/good.ogg"
case_ "Ogg Opus with its headers and no audio" yes -- "${C[@]}" "$F/opus-in-ogg.ogg" "$F/good.ogg"
case_ "Opus: truncated (7/8 of a 5 s file)" yes -- "${C[@]}" "$F/truncated.opus" "$F/good.ogg"
case_ "Opus: 1 KiB of garbage in the middle of a 5 s file" yes -- "${C[@]}" "$F/garbage-middle.opus" "$F/good.ogg"
case_ "Opus: 10 channels (mapping family 255)" yes -- "${C[@]}" "$F/ten-channels.opus" "$F/good.ogg"
case_ "chain: Opus (0.5 s), then a Vorbis link" yes -- "${C[@]}" "$F/opus-then-vorbis.opus" "$F/good.ogg"
case_ "chain: Vorbis (0.5 s), then an Opus link" yes -- "${C[@]}" "$F/vorbis-then-opus.ogg" "$F/good.ogg"
case_ "truncated (half of a 5 s file)" yes -- "${C[@]}" "$F/truncated.ogg" "$F/good.ogg"
case_ "1 KiB of garbage in the middle of a 5 s file" yes -- "${C[@]}" "$F/garbage-middle.ogg" "$F/good.ogg"
case_ "chain: good (0.5 s), link with a damaged identification header, good (0.5 s)" - -- "${C[@]}" "$F/bad-link-id.ogg"
case_ "chain: good (0.5 s), link with a damaged setup header, good (0.5 s)" - -- "${C[@]}" "$F/bad-link-setup.ogg"
case_ "chain: good (0.5 s), 5 s link cut in half, good (0.5 s)" - -- "${C[@]}" "$F/bad-link-cut.ogg"
case_ "chain: good, link with a damaged setup header, the same good file again" - -- "${C[@]}" "$F/bad-link-same-serial.ogg"
case_ "absurd vendor length (0xFFFFFFF0)" yes -- "${C[@]}" "$F/huge-vendor-length.ogg" "$F/good-copy.ogg" "$F/good.ogg"
case_ "absurd comment count (0x7FFFFFFF)" yes -- "${C[@]}" "$F/huge-comment-count.ogg" "$F/good.ogg"
case_ "absurd length of one comment (0xFFFFFFF0)" yes -- "${C[@]}" "$F/huge-comment-length.ogg" "$F/good.ogg"
case_ "a 50 MB picture" yes -- "${C[@]}" "$F/bigpic.ogg" "$F/good.ogg"
case_ "invalid UTF-8 in tags" yes -- "${C[@]}" "$F/badutf8.ogg" "$F/good.ogg"
case_ "control and escape sequences in tags" yes -- "${C[@]}" "$F/controls.ogg" "$F/good.ogg"
case_ "a playlist that includes itself" yes -- "${C[@]}" "$F/self.m3u"
case_ "two playlists that include each other" - -- "${C[@]}" "$F/a.m3u"
case_ "config line with no '='" - -- --output wav:OUT --untimed --status events --config "$W/no-equals.conf" "$F/good.ogg"
case_ "config: unterminated section header" - -- --output wav:OUT --untimed --status events --config "$W/bad-section.conf" "$F/good.ogg"
case_ "config: unknown key" - -- --output wav:OUT --untimed --status events --config "$W/unknown-key.conf" "$F/good.ogg"
case_ "config file missing" - -- --output wav:OUT --untimed --status events --config "$W/missing.conf" "$F/good.ogg"
case_ "unknown option" - -- "${C[@]}" --frobnicate "$F/good.ogg"
case_ "option value out of range" - -- "${C[@]}" --volume 150 "$F/good.ogg"
LOGF="$W/log\\,a\\:b\\=c.txt"
case_ "plugin option with escaped , : = in the value" yes -- "${C[@]}" --plugin "log:path=$LOGF" "$F/good.ogg"
[ -f "$W/log,a:b=c.txt" ] && ROWS[-1]="${ROWS[-1]% |} (log written to \`log,a:b=c.txt\`) |"
case_ "plugin option with an unescaped ',' in the value" - -- "${C[@]}" --plugin "log:path=/tmp/a,b" "$F/good.ogg"
case_ "plugin option with no '='" - -- "${C[@]}" --plugin "log:verbose" "$F/good.ogg"
# A plugin named with --plugin that cannot be loaded is a usage error: motet refuses to start (64),
# before anything plays. One that loads but fails later is left out and the music goes on.
case_ "plugin: unknown name" - -- "${C[@]}" --plugin nosuchplugin "$F/good.ogg"
case_ "plugin: not a shared object" - -- "${C[@]}" --plugin "$W/plugins/libmotet-text.so" "$F/good.ogg"
case_ "plugin: unresolved symbol" - -- "${C[@]}" --plugin "$W/plugins/libmotet-unresolved.so" "$F/good.ogg"
case_ "plugin: wrong ABI (major 2)" - -- "${C[@]}" --plugin "$W/plugins/libmotet-wrongabi.so" "$F/good.ogg"
case_ "plugin: create fails (MOTET_ERROR)" yes -- "${C[@]}" --plugin "$W/plugins/libmotet-failcreate.so" "$F/good.ogg"
case_ "plugin: crashes (SIGSEGV) in create" - -- "${C[@]}" --plugin "$W/plugins/libmotet-crashcreate.so" "$F/good.ogg"
case_ "WAV output in a missing directory" - -- --output wav:/nonexistent/dir/out.wav --untimed --no-config --status events "$F/good.ogg"
case_ "only bad inputs" - -- "${C[@]}" "$F/missing.ogg" "$F/text.ogg"

# Disk full and read-only directory (real tmpfs file systems; root only).
tmpfs() {  # tmpfs NAME OPTIONS: mounts a fresh tmpfs at $W/NAME
    mkdir -p "$W/$1" && mount -t tmpfs -o "$2" tmpfs "$W/$1" && MOUNTS+=("$W/$1")
}
fill() { dd if=/dev/zero of="$1/filler" bs=4096 2>/dev/null; true; }
if [ "$(id -u)" = 0 ]; then
    OW=(--untimed --no-config --status events)
    tmpfs fills size=256k
    OUTPUT_DIR=$W/fills case_ "WAV output on a disk that fills up mid-track (256 KiB)" - -- --output "wav:$W/fills/out.wav" "${OW[@]}" "$F/long.ogg" "$F/good.ogg"
    tmpfs full size=64k && fill "$W/full"
    OUTPUT_DIR=$W/full case_ "WAV output on a full disk" - -- --output "wav:$W/full/out.wav" "${OW[@]}" "$F/good.ogg"
    tmpfs readonly ro
    OUTPUT_DIR=$W/readonly case_ "WAV output in a read-only directory" - -- --output "wav:$W/readonly/out.wav" "${OW[@]}" "$F/good.ogg"
    case_ "json delegate: state file in a read-only directory" yes -- "${C[@]}" --plugin "json:path=$W/readonly/now-playing.json" "$F/good.ogg"
    case_ "json delegate: events file in a read-only directory" yes -- "${C[@]}" --plugin "json:path=$W/now-playing.json,events=$W/readonly/events.jsonl" "$F/good.ogg"
    case_ "json delegate: state file on a full disk" yes -- "${C[@]}" --plugin "json:path=$W/full/now-playing.json" "$F/good.ogg"
else
    echo "bad-input.sh: not root: the disk-full and read-only cases are left out" >&2
fi

{
    cat <<'HEAD'
# Bad input: what the user sees

Generated by `bench/bad-input.sh` (run it again after a change: `MOTET_BUILD_DIR=… bench/bad-input.sh`).
Each case runs `motet --output wav:out.wav --untimed --no-config --status events BAD good.ogg`
unless the command says otherwise; a good track follows the bad input so the table shows whether
playback goes on (`PLUGINS/` is the directory of the test plugins the script compiles, `BUILD/`
the build directory). *stderr* is every line the player printed there (control characters shown as
`\xNN`); *stdout* is the event lines other than those of the good track. *Good track played*:
`Finished: good (ok, completed)` was printed (untagged, the file is titled by its name without `.ogg`). *Output*: the WAV file checked after the run
(header sizes against the file's size). *Problems* is filled in by the script: a crash or a hang,
the good track not played, raw control characters printed, a half-written WAV.

HEAD
    echo "| Case | Command | stderr | stdout (other events) | Exit | Good track played | Output | Problems |"
    echo "|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${ROWS[@]}"
    echo
    echo "Exit codes (README): 0 when anything played, 1 when nothing could be played or the output failed, 64 for a bad option or config line."
    cat <<'NOTES'

## Reviewed by hand (2026-11-30; re-check after a change)

Fixed while making this table:
- Nothing playable with `wav:PATH`: a 0-byte `PATH` was left behind (the sink creates the file up
  front to fail early on a bad path). `WAVSink.close()` now removes its file when no header was
  ever written (a regular, empty file that the path still names; never a device or a pipe).
- A damaged link inside a chain printed the same "a link with damaged headers … was skipped" line
  twice (libvorbisfile reports it once per header it fails to read). `VorbisDecoder` now reports
  the same damage once until samples come again (`DamagedChainTests`).
- **A plugin that crashes in `create`** took the player down (exit 139, Swift's 50-line
  backtrace). Calls into plugins now run under a crash guard (`Sources/CPluginGuard`): one line
  names the plugin, the call and the signal, the plugin gets no more calls, playback goes on
  (`CrashGuardTests`, `PluginCrashTests`).
- **Tags with Unicode format characters** (U+202E RIGHT-TO-LEFT OVERRIDE and friends) were printed
  raw in the event lines. `TerminalText` now shows them as `\u{202e}`.

Still wrong:
- **A damaged link between two copies of the same file** (same serial number) disappears without a
  word: libvorbisfile maps links by serial number and never reports it. A link **cut short** inside
  a chain is not reported either (its remaining samples play, the next link follows).

Disk full and read-only (tmpfs mounts, rows at the end): the WAV output keeps the whole frames
written before the disk filled up, renamed `out.partial.wav` so it cannot pass for a complete file,
and stops with exit 1; a disk full from the start leaves no file. The json delegate turns itself
off when its files cannot be created; when the disk fills up later it keeps the previous state
file and whole lines in the events file, and recovers (`FaultTests`: a full disk mid-run is
dynamic, so it is tested there, not here).

Not a bug, noted:
- Garbage that reaches the last page is reported as "the file ends early (its
  last page is cut off or damaged)": true, the last page is damaged; the samples before the garbage
  play, exactly as many as `oggdec` writes.
NOTES
} >"$OUT_MD"
echo "bad-input.sh: wrote $OUT_MD" >&2
