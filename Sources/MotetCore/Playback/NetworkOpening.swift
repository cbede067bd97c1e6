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

extension VorbisDecoder {
    /// Opens an `http://` or `https://` URL: libcurl fetches it on its own thread into a bounded
    /// buffer (`NetworkStream`), which libvorbisfile reads. A finite file served in ranges is
    /// seekable and has a duration; a live stream is read as a stream (link after link). Throws
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
        var callbacks = ov_callbacks(
            read_func: { NetworkStreamCallbacks.read($0, $1, $2, $3) },
            seek_func: { NetworkStreamCallbacks.seek($0, $1, $2) },
            close_func: { NetworkStreamCallbacks.close($0) },
            tell_func: { NetworkStreamCallbacks.tell($0) })
        if !head.isSeekable { callbacks.seek_func = nil }
        let source = CallbackSource(
            datasource: Unmanaged.passUnretained(stream).toOpaque(), callbacks: callbacks, owner: stream,
            refusal: { _ in
                let error = stream.error ?? ContentCheck.describeRefused(stream.leadingBytes, contentType: head.contentType)
                stream.interrupt()
                return error
            },
            failure: { stream.error })
        let decoder = try VorbisDecoder(name: WebAddress.shown(url), source: source)
        stream.headersDone()
        stream.setBitrate(decoder.nominalBitrate)
        return .decoder(decoder)
    }
}
