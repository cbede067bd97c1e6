import COpusFile
import CVorbisFile
import MotetDecoding
import MotetEvents
import MotetNetwork

/// What opening a URL gives: a decoder, or the news that the server answered with a playlist.
enum NetworkOpening {
    case decoder(any AudioDecoder)
    /// The server's content type says "playlist" (`NetworkError.playlist`): read it as one.
    case playlist(PlaylistContentType)
}

extension OggDecoding {
    /// How many bytes are read first to tell the codec: an Ogg page header with one segment and
    /// the 8 bytes of `OpusHead` (or the start of a Vorbis identification header).
    static let codecProbeBytes = 27 + 1 + 8

    /// Opens an `http://` or `https://` URL: libcurl fetches it on its own thread into a bounded
    /// buffer (`NetworkStream`), which libopusfile reads when the stream's first packet is
    /// `OpusHead`, libvorbisfile otherwise (whatever the content type says). A finite file served
    /// in ranges is seekable and has a duration; a live stream is read as a stream (link after link). Throws
    /// why, typed (`DecoderError.network`: network errors, other formats, web pages…; a read that
    /// fails later carries the stream's cause the same way). The stream is handed
    /// to `opened` before anything blocks, so that a park or quit can interrupt the open. A server
    /// that answers with a playlist's content type gives `.playlist` (the stream is closed).
    static func open(
        url: String, options: NetworkOptions, notice: @escaping @Sendable (NetworkNotice) -> Void, opened: (NetworkStream) -> Void
    ) throws(DecoderError) -> NetworkOpening {
        let stream = NetworkStream(url: url, options: options, notice: notice)
        opened(stream)
        let head: ResponseHead
        switch stream.waitForResponse() {
        case .failure(.playlist(let type, _)):
            stream.interrupt()
            return .playlist(type)
        case .failure(let error):
            stream.interrupt()
            throw .network(error)
        case .success(let response):
            head = response
        }
        let datasource = Unmanaged.passUnretained(stream).toOpaque()
        // The first bytes name the codec; the library is handed them and reads on.
        var initial = [UInt8](repeating: 0, count: codecProbeBytes)
        var probed = 0
        while probed < initial.count {
            let got = initial.withUnsafeMutableBufferPointer { stream.read($0.baseAddress! + probed, $0.count - probed) }
            if got <= 0 { break }
            probed += got
        }
        initial.removeSubrange(probed...)
        let refusal: (Int32) -> NetworkError = { _ in
            let error = stream.error ?? ContentCheck.describeRefused(stream.leadingBytes, contentType: head.contentType)
            stream.interrupt()
            return error
        }
        let decoder: any AudioDecoder
        if OggDecoding.startsAsOpus(initial) {
            var callbacks = OpusFileCallbacks(
                read: { NetworkStreamCallbacks.readBytes($0, $1, $2) },
                seek: { NetworkStreamCallbacks.seek($0, $1, $2) },
                tell: { Int64(NetworkStreamCallbacks.tell($0)) },
                close: { NetworkStreamCallbacks.close($0) })
            if !head.isSeekable {
                callbacks.seek = nil
                callbacks.tell = nil
            }
            let source = CallbackSource(
                datasource: datasource, callbacks: callbacks, initial: initial, owner: stream, refusal: refusal, failure: { stream.error })
            decoder = try OpusDecoder(name: WebAddress.shown(url), source: source)
        } else {
            var callbacks = ov_callbacks(
                read_func: { NetworkStreamCallbacks.read($0, $1, $2, $3) },
                seek_func: { NetworkStreamCallbacks.seek($0, $1, $2) },
                close_func: { NetworkStreamCallbacks.close($0) },
                tell_func: { NetworkStreamCallbacks.tell($0) })
            if !head.isSeekable { callbacks.seek_func = nil }
            let source = CallbackSource(
                datasource: datasource, callbacks: callbacks, initial: initial, owner: stream, refusal: refusal, failure: { stream.error })
            decoder = try VorbisDecoder(name: WebAddress.shown(url), source: source)
        }
        stream.headersDone()
        stream.setBitrate(decoder.nominalBitrate)
        return .decoder(decoder)
    }
}
