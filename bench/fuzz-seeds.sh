#!/usr/bin/env bash
# Writes the fuzzers' seed corpora to DIR/TARGET/ (default .build/fuzz/seeds, git-ignored):
# small Ogg Vorbis files made with sox + oggenc (+ vorbiscomment for tags and pictures, a chained
# file, mono/stereo/5.1, two rates), picture blocks, comment lists, config files, --plugin
# arguments and playlists. Needs sox, vorbis-tools and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-.build/fuzz/seeds}
mkdir -p "$OUT"/{picture,comments,decode,config,pluginspec,playlist}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# --- Ogg Vorbis files: short (0.15 s), low quality, so a mutation reaches every page quickly.
# The same bytes on every run (the fixed fuzz pass of `make test` depends on it): sox without
# dither (-D; its dither is random), oggenc with a fixed stream serial number (-s; random otherwise).
tone() {  # tone NAME RATE CHANNELS SECONDS SERIAL
    sox -q -D -n -r "$2" -c "$3" -b 16 "$WORK/$1.wav" synth "$4" sine 440 sine 660 sine 880 sine 220 sine 330 sine 550 gain -6
    oggenc -Q -q -1 -s "$5" -o "$OUT/decode/$1.ogg" "$WORK/$1.wav" 2>/dev/null
}
tone stereo-44k 44100 2 0.15 1001
tone mono-8k 8000 1 0.3 1002
tone six-48k 48000 6 0.1 1003
tone stereo-22k 22050 2 0.05 1004
cat "$OUT/decode/stereo-44k.ogg" "$OUT/decode/mono-8k.ogg" >"$OUT/decode/chained.ogg"
head -c 2500 "$OUT/decode/stereo-44k.ogg" >"$OUT/decode/truncated.ogg"

# --- Picture blocks (decoded METADATA_BLOCK_PICTURE), and the same as comments.
python3 - "$OUT" <<'PY'
import base64, struct, sys
out = sys.argv[1]
png = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0b5f6d80000000049454e44ae426082")
jpeg = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + b"\x00" * 20 + b"\xff\xd9"
def block(kind, mime, desc, data):
    b = struct.pack(">I", kind) + struct.pack(">I", len(mime)) + mime + struct.pack(">I", len(desc)) + desc
    return b + struct.pack(">IIII", 1, 1, 24, 0) + struct.pack(">I", len(data)) + data
blocks = {
    "front-png": block(3, b"image/png", b"", png),
    "jpeg-desc": block(0, b"image/jpeg", "Déjà vu".encode(), jpeg),
    "link": block(3, b"-->", b"", b"http://example.com/a.png"),
    "gif": block(4, b"image/gif", b"", b"GIF89a" + b"\x00" * 10),
    "webp": block(3, b"", b"", b"RIFF\x00\x00\x00\x00WEBPVP8 "),
    "bmp": block(3, b"image/bmp", b"", b"BM" + b"\x00" * 30),
    "empty-data": block(3, b"image/png", b"", b""),
    "huge-length": block(3, b"image/png", b"", png)[:-len(png) - 4] + struct.pack(">I", 0xFFFFFFFF) + png,
}
for name, b in blocks.items():
    open(f"{out}/picture/{name}", "wb").write(b)
    open(f"{out}/picture/{name}.b64", "wb").write(base64.b64encode(b))
comments = {
    "plain": [b"TITLE=Song", b"ARTIST=One", b"ARTIST=Two", b"ALBUM=Album", b"DATE=2024"],
    "gain": [b"REPLAYGAIN_TRACK_GAIN=-6.5 dB", b"REPLAYGAIN_TRACK_PEAK=0.98", b"REPLAYGAIN_ALBUM_GAIN=+1.2 dB",
             b"REPLAYGAIN_ALBUM_PEAK=1.2", b"replaygain_track_gain=nan dB"],
    "picture": [b"TITLE=x", b"METADATA_BLOCK_PICTURE=" + base64.b64encode(blocks["front-png"]),
                b"METADATA_BLOCK_PICTURE=" + base64.b64encode(blocks["jpeg-desc"])],
    "coverart": [b"COVERART=" + base64.b64encode(png), b"COVERARTMIME=image/png"],
    "hostile": [b"TITLE=\x1b[31mred\x07\x00bell", b"ARTIST=\xff\xfe\xc3", b"ALBUM=" + "é".encode() * 600, b"=novalue",
                b"NOEQUALS", b"METADATA_BLOCK_PICTURE=!!!!", b"COVERART=QUJD="],
}
for name, lines in comments.items():
    open(f"{out}/comments/{name}", "wb").write(b"\n".join(lines))
open(f"{out}/picture.block", "wb").write(blocks["front-png"])
PY
cp "$OUT/decode/stereo-44k.ogg" "$WORK/tagged.ogg"
printf 'TITLE=Tagged\nARTIST=Someone\nREPLAYGAIN_TRACK_GAIN=-3 dB\nMETADATA_BLOCK_PICTURE=%s\n' \
    "$(base64 -w0 "$OUT/picture.block")" >"$WORK/tags.txt"
vorbiscomment -a -R -c "$WORK/tags.txt" "$WORK/tagged.ogg"
cp "$WORK/tagged.ogg" "$OUT/decode/tagged.ogg"
rm -f "$OUT/picture.block"

# --- Config files.
cp Examples/motet.conf "$OUT/config/example.conf"
printf 'output = wav:/tmp/x.wav\nuntimed = yes\nvolume = 80\nplugin = log:level=debug\n[plugin json]\nfile = /tmp/j.so\npath = "/tmp/a b.json"\n' >"$OUT/config/small.conf"
printf '\xef\xbb\xbfreplaygain = album\r\nshuffle = on\r\n; comment\r\n[plugin  notify ]\r\ntimeout=5\r\n' >"$OUT/config/crlf.conf"
printf 'volume\n' >"$OUT/config/no-equals.conf"
printf '[plugin\nstart = 1:02:03.5\nskip-limit = 6/60\n' >"$OUT/config/bad-section.conf"

# --- --plugin arguments.
for spec in 'log' 'json:file=/tmp/x.json' 'log:level=debug,prefix=a\,b\:c\=d' '/opt/a:b/libmotet-x.so:k=v' \
    '/x/y.so:file=/tmp/out' 'notify:' 'a:k=' 'a:=v' 'a:k=v,,' 'lib\\x' './rel.so' 'mpris:name=Motet\\'; do
    printf '%s' "$spec" >"$OUT/pluginspec/$(printf '%s' "$spec" | md5sum | cut -c1-12)"
done

# --- Playlists.
printf '#EXTM3U\n#EXTINF:123,Artist - Title\nmusic/a.ogg\n/abs/b.ogg\n\n' >"$OUT/playlist/simple.m3u"
printf '\xef\xbb\xbffile:///home/me/a%%20b.ogg\r\nfile://localhost/x.ogg\r\nhttp://radio/stream\r\nfile://host/x\r\nfile:///bad%%zz\r\n  ../up.ogg  \r\n' >"$OUT/playlist/urls.m3u8"
printf 'self.m3u\n\xff\xfe.ogg\n' >"$OUT/playlist/self.m3u"
# --- HTTP response headers (Icecast, Shoutcast, a file, a redirect, an error page).
mkdir -p "$OUT/http"
printf 'HTTP/1.0 200 OK\r\nContent-Type: audio/ogg\r\nicy-name: Radio\x1b[1m\r\nicy-genre: Jazz\r\nicy-br: 128\r\nicy-url: http://r/\r\n\r\nOggS\x00\x02' >"$OUT/http/icecast"
printf 'ICY 200 OK\r\nicy-name:Old\r\ncontent-type:audio/mpeg\r\n\r\nID3\x04' >"$OUT/http/shoutcast"
printf 'HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 10-19/20\r\nContent-Length: 10\r\nAccept-Ranges: bytes\r\n\r\n' >"$OUT/http/range"
printf 'HTTP/1.1 302 Found\r\nLocation: /x\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<!DOCTYPE html>' >"$OUT/http/redirect"
echo "fuzz-seeds.sh: seeds in $OUT" >&2
