import COpusFile
import CVorbisFile
import Glibc
import MotetDecoding
import MotetNetwork
import Testing

/// `DecoderError.line(path:)` is the one rendering of every case; `code` is what plugins get.
@Suite struct DecoderErrorLineTests {
    @Test func everyCaseHasItsLineAndCode() {
        let p = "/music/song.ogg"
        let cases: [(DecoderError, String, Int32)] = [
            (.openFailed(errno: ENOENT), "no such file — check the path", -1000),
            (.openFailed(errno: EACCES), "permission denied — check the file's permissions", -1000),
            (.isDirectory, "is a directory, not an Ogg file — name a file inside it instead", -1000),
            (.notRegularFile, "is not a regular file — give an Ogg Vorbis or Ogg Opus file", -1000),
            (.empty, "the file is empty (0 bytes) — re-copy or re-download it", -1000),
            (.unreadable(errno: EIO), "cannot be read (Input/output error) — check the disk and the file", -1000),
            (.vorbis(OV_EREAD, atMicros: 2_500_000), "read error at 0:02.500 — check the disk or network share the file is on", OV_EREAD),
            (.vorbis(OV_ENOSEEK), "cannot seek in this stream — play it from the start", OV_ENOSEEK),
            (.damagedHeaders(OV_EBADHEADER), "its Vorbis headers are damaged or cut short — re-copy or re-encode the file", OV_EBADHEADER),
            (.notOgg(OV_ENOTVORBIS), "not an Ogg file — Motet plays Ogg Vorbis and Ogg Opus files", OV_ENOTVORBIS),
            (.notVorbis(OV_ENOTVORBIS, what: "an Ogg FLAC file"), "an Ogg FLAC file, not Ogg Vorbis or Ogg Opus — Motet plays only those", OV_ENOTVORBIS),
            (.opus(OP_EBADHEADER), "its Opus headers are damaged or cut short — re-copy or re-encode the file", OP_EBADHEADER),
            (.opus(OP_ENOTFORMAT, atMicros: 1_000_000),
             "a link (chained section) is not Ogg Opus at 0:01.000 — split the file or re-encode it as one codec", OP_ENOTFORMAT),
            (.opusLinkSkipped(atMicros: 500_000),
             "an Ogg Opus link (chained section) at 0:00.500 was skipped — Motet plays a chain of one codec at a time; split the file", OV_ENOTVORBIS),
            (.opusChannels(12), "an Ogg Opus file with 12 channels — Motet plays Opus with 1 to 8 channels; re-encode it with at most 8", -1000),
            (.endsEarly,
             "the file ends early (its last page is cut off or damaged) — it may be an incomplete copy or download; copy or download it again", -1000),
            (.startPastEnd(startMicros: 1_250_000, durationMicros: 500_000), "--start 1.25 is past the end (0.5 s)", -1000),
            (.resampler("I/O ratio out-of-range"),
             "cannot be resampled to --output-rate (I/O ratio out-of-range) — play it without --output-rate", -1000),
            (.skipped(OV_EBADLINK, atMicros: 3_723_004_000),
             "a damaged link at 1:02:03.004 was skipped — the file is corrupt; re-copy or re-encode it", OV_EBADLINK),
            (.network(.timedOut), "nothing arrived for too long (timed out) — check the network, or raise --network-timeout", -1000),
            (.network(.interrupted, code: OV_EREAD), "the transfer failed (interrupted) — check the address and the network connection", OV_EREAD),
        ]
        for (error, problem, code) in cases {
            #expect(error.line(path: p) == "\(p): \(problem)")
            #expect(error.code == code, "\(error)")
        }
    }

    /// A URL is named without its credentials, as `NetworkError.line(url:)` names it.
    @Test func aURLIsShownWithoutCredentials() {
        let url = "https://me:pw@radio.example/a.ogg"
        let error = NetworkError.httpStatus(503, "Service Unavailable")
        #expect(DecoderError.network(error).line(path: url) == error.line(url: url))
        #expect(DecoderError.vorbis(OV_EBADPACKET, atMicros: 0).line(path: url)
            == "https://radio.example/a.ogg: contains a damaged packet at 0:00.000 — re-copy or re-encode the file")
    }
}
