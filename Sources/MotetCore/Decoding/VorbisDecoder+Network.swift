import CVorbisFile
import MotetNetwork

extension VorbisDecoder {
    /// Opens an `http://` or `https://` URL: libcurl fetches it on its own thread into a bounded
    /// buffer (`NetworkStream`), which libvorbisfile reads. A finite file served in ranges is
    /// seekable and has a duration; a live stream is read as a stream (link after link). Throws
    /// one line naming the URL (network errors, other formats, web pages…). `opened` gets the
    /// stream before anything blocks, so that a park or quit can interrupt the open.
    public convenience init(
        url: String, options: NetworkOptions, notice: @escaping @Sendable (String) -> Void, opened: (NetworkStream) -> Void
    ) throws(DecoderError) {
        let stream = NetworkStream(url: url, options: options, notice: notice)
        opened(stream)
        let head: ResponseHead
        switch stream.waitForResponse() {
        case .failure(let error):
            stream.interrupt()
            throw DecoderError(code: DecoderError.motetCode, description: error.line(url: url))
        case .success(let response):
            head = response
        }
        let descriptor = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        descriptor.initialize(to: -1)
        let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
        var callbacks = ov_callbacks(
            read_func: { NetworkStreamCallbacks.read($0, $1, $2, $3) },
            seek_func: { NetworkStreamCallbacks.seek($0, $1, $2) },
            close_func: { NetworkStreamCallbacks.close($0) },
            tell_func: { NetworkStreamCallbacks.tell($0) })
        if !head.isSeekable { callbacks.seek_func = nil }
        let status = ov_open_callbacks(Unmanaged.passUnretained(stream).toOpaque(), file, nil, 0, callbacks)
        guard status == 0 else {
            let error = stream.error ?? ContentCheck.describeRefused(stream.leadingBytes, contentType: head.contentType)
            stream.interrupt()
            descriptor.deallocate()
            file.deallocate()
            throw DecoderError(code: status, description: error.line(url: url))
        }
        stream.headersDone()
        if let info = ov_info(file, -1), info.pointee.bitrate_nominal > 0 { stream.setBitrate(Int(info.pointee.bitrate_nominal)) }
        try self.init(path: url, file: file, descriptor: descriptor, stream: stream, ending: .whole, playsAsStream: false)
    }

    /// A live stream (no length, or a station): no duration, no seeking.
    public var isLive: Bool { stream?.head?.isLive ?? false }
}
