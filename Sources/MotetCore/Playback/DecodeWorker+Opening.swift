import MotetDecoding
import MotetEvents
import MotetNetwork
import MotetSystem

/// How the decoder thread opens what it plays: a local file (`openFile`, the one way every file
/// is opened: the current track, the next one looked at ahead for a crossfade, a cut's tail) or a
/// request that may be a URL or a playlist (`openRequest`). With `--output-rate`, each decoder is
/// wrapped in a `ResamplingDecoder` unless it already has the rate (then it stays bit-exact).
extension DecodeWorker {
    /// Decoder thread.
    /// Opens the local file `path` (Ogg Vorbis or Ogg Opus), resampled to `--output-rate` when
    /// one is set and the file has another rate.
    func openFile(_ path: String) throws(DecoderError) -> any AudioDecoder {
        ThreadRole.decoder.check()
        return try ResamplingDecoder.wrapping(OggDecoding.open(path: path), outputRate: outputRate)
    }

    /// Decoder thread.
    /// Opens a local file, or a URL over the network (interruptible by a park or quit); nil when
    /// the entry is a playlist (by its content type, or a name given while playing) and was
    /// replaced by its entries.
    func openRequest(_ request: TrackRequest) throws(DecoderError) -> (any AudioDecoder)? {
        ThreadRole.decoder.check()
        let path = request.path
        let cancelled: @Sendable () -> Bool = { [gate] in gate.mustStop }
        if request.expand {
            blockingStream.withLock { $0 = nil }
            expandEntry(request, nil, cancelled)
            return nil
        }
        guard WebAddress.isRemote(path) else {
            blockingStream.withLock { $0 = nil }
            return try openFile(path)
        }
        let report = self.report
        switch try OggDecoding.open(
            url: path, options: network, notice: { report(.notice($0, url: path)) },
            opened: { [ring, dataReady] stream in
                stream.whenCaughtUp { if ring.availableToRead > 0 { dataReady.post() } }
                blockingStream.withLock { $0 = stream }
            })
        {
        case .decoder(let decoder):
            return try ResamplingDecoder.wrapping(decoder, outputRate: outputRate)
        case .playlist(let type):
            blockingStream.withLock { $0 = nil }
            expandEntry(request, type, cancelled)
            return nil
        }
    }
}
