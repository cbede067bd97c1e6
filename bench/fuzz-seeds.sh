#!/usr/bin/env bash
# Writes the fuzzers' seed corpora to DIR/TARGET/ (default .build/fuzz/seeds, git-ignored):
# small Ogg Vorbis files made with sox + oggenc (+ vorbiscomment for tags and pictures, a chained
# file, mono/stereo/5.1, two rates), picture blocks, comment lists, config files, --plugin
# arguments and playlists; small Ogg Opus files made with opusenc (mono, stereo, 5.1, chained,
# truncated, tagged with R128 gains). Needs sox, vorbis-tools, opus-tools and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-.build/fuzz/seeds}
mkdir -p "$OUT"/{picture,comments,decode,opus,config,pluginspec,playlist,pls,xspf}
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

# --- Ogg Opus files, as small (low bit rate, 20 ms pages) and as fixed (--serial) as the above.
opus() {  # opus NAME CHANNELS SECONDS SERIAL [opusenc options]
    sox -q -D -n -r 48000 -c "$2" -b 16 "$WORK/$1.wav" synth "$3" sine 440 sine 660 sine 880 sine 220 sine 330 sine 550 gain -6
    opusenc --quiet --bitrate 16 --max-delay 20 --serial "$4" "${@:5}" "$WORK/$1.wav" "$OUT/opus/$1.opus"
}
opus stereo 2 0.15 2001
opus mono 1 0.3 2002
opus six 6 0.1 2003
opus tagged 2 0.1 2004 --title Title --artist Artist --comment R128_TRACK_GAIN=-1536 --comment R128_ALBUM_GAIN=256
cat "$OUT/opus/stereo.opus" "$OUT/opus/mono.opus" >"$OUT/opus/chained.opus"
head -c 1500 "$OUT/opus/stereo.opus" >"$OUT/opus/truncated.opus"

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
printf '[playlist]\r\nNumberOfEntries=3\r\nFile1=http://radio.example:8000/live.ogg\r\nTitle1=Live\r\nLength1=-1\r\nfile10=../up/ten.ogg\r\nFILE2 = //mirror.example/b.ogg?x=1#f\r\nVersion=2\r\n' >"$OUT/pls/station.pls"
printf '\xef\xbb\xbf[other]\nFile1=no\n[PlayList]\nFile99999999999999999999=huge\nFile3=\nfile2=file:///m/a%%20b.ogg\nFile4=ftp://x/y\nFile5=C:\\music\\x.ogg\n; c\n' >"$OUT/pls/hostile.pls"
cat >"$OUT/xspf/full.xspf" <<'XSPF'
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE playlist [ <!ENTITY e "&e;&e;"> ]>
<playlist version="1" xmlns="http://xspf.org/ns/0/">
  <location>http://example.com/this.xspf</location>
  <trackList>
    <!-- <track><location>commented.ogg</location></track> -->
    <track><title>A &amp; B</title><location>http://radio.example/a%20b.ogg</location><location>alt.ogg</location></track>
    <track><location> songs/R&amp;B &#233;t&#xE9;.ogg </location></track>
    <track><location><![CDATA[cdata <&> ../name.ogg]]></location></track>
    <xspf:track><xspf:location a='x>y'>file:///music/x.ogg</xspf:location></xspf:track>
    <track><location/></track><track><title>no location</title></track>
  </trackList>
</playlist>
XSPF
printf '<trackList><TRACK><Location>b<b>old</b>.ogg</Location></TRACK><track><location>&nbsp;&#0;&#xD800;&amp&lt;c.ogg</track>' >"$OUT/xspf/sloppy.xspf"
# --- HTTP response headers (Icecast, Shoutcast, a file, a redirect, an error page).
mkdir -p "$OUT/http"
printf 'HTTP/1.0 200 OK\r\nContent-Type: audio/ogg\r\nicy-name: Radio\x1b[1m\r\nicy-genre: Jazz\r\nicy-br: 128\r\nicy-url: http://r/\r\n\r\nOggS\x00\x02' >"$OUT/http/icecast"
printf 'ICY 200 OK\r\nicy-name:Old\r\ncontent-type:audio/mpeg\r\n\r\nID3\x04' >"$OUT/http/shoutcast"
printf 'HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 10-19/20\r\nContent-Length: 10\r\nAccept-Ranges: bytes\r\n\r\n' >"$OUT/http/range"
printf 'HTTP/1.1 302 Found\r\nLocation: /x\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<!DOCTYPE html>' >"$OUT/http/redirect"
# --- The web delegate's requests (Tests/Fuzz/WebFuzz.swift): a method byte (0 GET, 1 POST; +0x80:
# a token is needed), the path, headers, an empty line, the body.
mkdir -p "$OUT/web"
printf '\x00/\nHost: 127.0.0.1:6690\n\n' >"$OUT/web/page"
printf '\x01/api/command\nHost: 127.0.0.1:6690\nOrigin: http://127.0.0.1:6690\n\n{"command":"like","track":12}' >"$OUT/web/like"
printf '\x01/api/command\nHost: localhost:6690\n\n{"command":"volume","value":40.5}' >"$OUT/web/volume"
printf '\x81/api/command\nHost: 192.0.2.1:6690\nx-motet-token: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n\n{"command":"seek","value":1e2,"x":[1,{"a":"\\ud83c\\udfb5"}]}' >"$OUT/web/token"
printf '\x80/artwork/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\nHost: 192.0.2.1:6690\ntoken: x\n\n' >"$OUT/web/artwork"
printf '\x00/api/events\nHost: 127.0.0.1:6690\n\n' >"$OUT/web/events"
# --- The plugin host framing (plugin_wire.h): the first byte picks event (0), descriptor (1) or a
# frame stream (2); the payloads are what the player and motet-plugin-host really send.
mkdir -p "$OUT/wire"
python3 - "$OUT/wire" <<'WIRE'
import struct, sys
out = sys.argv[1]
def s(text):
    if text is None: return struct.pack("<I", 0)
    b = text.encode() + b"\0"
    return struct.pack("<I", len(b)) + b
track = struct.pack("<IIQ", 1, 1, 7) + s("Song") + s("Ada, Bo") + struct.pack("<I", 2) + s("Ada") + s("Bo") + s("Album") \
    + struct.pack("<q", 180000000) + s("/m/s.ogg") + s(None) + s("Radio") + s("c0ffee") + s(None) + s("Jazz") + s(None)
events = {
    "state": struct.pack("<I7I", 2, 2, 80, 0, 1, 1, 1, 0),
    "started": struct.pack("<II", 8, 0) + track + struct.pack("<q", 1700000000000000),
    "finished": struct.pack("<III", 3, 1, 0) + struct.pack("<Q", 7) + s("/m/s.ogg") + s("Song") + track + struct.pack("<qqq", 1000, 2000, -1),
    "nowplaying": struct.pack("<III", 1, 0xF, 5) + s("Song") + s("Ada, Bo") + s("Album") + struct.pack("<I", 1) + s("Ada")
        + struct.pack("<qqqd", 180000000, 1500000, 42, 1.0) + struct.pack("<Q", 4) + b"\x89PNG" + s("image/png") + s("c0ffee")
        + s("/c/c0ffee.png") + s("/m/s.ogg") + struct.pack("<Q", 7) + s(None) + s(None) + s(None) + s(None) + s(None),
    "error": struct.pack("<Ii", 4, -132) + s("bad") + s("/m/s.ogg") + struct.pack("<qQ", -1, 7),
    "lost": struct.pack("<II", 9, 3),
    "seeked": struct.pack("<IQq", 10, 7, 5000000),
    "shutdown": struct.pack("<I", 7),
}
for name, event in events.items():
    payload = struct.pack("<Q", 1) + event
    open(f"{out}/event-{name}", "wb").write(b"\0" + payload)
stream = b"".join(struct.pack("<II", len(struct.pack("<Q", i) + e), 2) + struct.pack("<Q", i) + e for i, e in enumerate(events.values()))
open(f"{out}/stream", "wb").write(b"\2" + stream + struct.pack("<II", 0, 3))
option = struct.pack("<II", 32, 5) + s("path") + s("~/x.json") + s("where")
descriptor = struct.pack("<IIII", 96, 1, 1, 0) + s("org.example.x") + s("x") + s("1.0") + s("an example") + struct.pack("<I", 7) \
    + s(None) + struct.pack("<I", 1) + option
open(f"{out}/descriptor", "wb").write(b"\1" + descriptor)
WIRE
echo "fuzz-seeds.sh: seeds in $OUT" >&2
