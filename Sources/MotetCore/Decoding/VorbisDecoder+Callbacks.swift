import CVorbisFile
import MotetNetwork

/// A data source a codec library reads through callbacks of its owner's (a stream over the
/// network): what `VorbisDecoder.init(name:source:)` (`Callbacks` is `ov_callbacks`) and
/// `OpusDecoder.init(name:source:)` (`OpusFileCallbacks`) open.
public struct CallbackSource<Callbacks> {
    /// The library's data source, handed to every callback.
    public var datasource: UnsafeMutableRawPointer
    /// The callbacks; no seek for a stream that cannot seek (read link after link).
    public var callbacks: Callbacks
    /// The first bytes of the stream, already read (to tell the codec by its first packet): the
    /// library takes them before it reads on.
    public var initial: [UInt8]
    /// Kept alive as long as the decoder (the callbacks' data source belongs to it).
    public var owner: AnyObject
    /// Why the data is not what the library takes, when it refuses it (its `OV_*` or `OP_*` code).
    public var refusal: (Int32) -> NetworkError
    /// Why the source failed, when it did: a read that fails (or ends) is then the source's failure.
    public var failure: () -> NetworkError?

    public init(
        datasource: UnsafeMutableRawPointer, callbacks: Callbacks, initial: [UInt8], owner: AnyObject,
        refusal: @escaping (Int32) -> NetworkError, failure: @escaping () -> NetworkError?
    ) {
        self.datasource = datasource
        self.callbacks = callbacks
        self.initial = initial
        self.owner = owner
        self.refusal = refusal
        self.failure = failure
    }
}

extension VorbisDecoder {
    /// Opens a callback source named `name` (its URL, as shown). Throws `source.refusal`'s cause
    /// with libvorbisfile's code when libvorbisfile refuses it (after which its `close_func` has
    /// not been called).
    public convenience init(name: String, source: CallbackSource<ov_callbacks>) throws(DecoderError) {
        let descriptor = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        descriptor.initialize(to: -1)
        let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
        let status = source.initial.withUnsafeBufferPointer { initial in
            ov_open_callbacks(
                source.datasource, file, UnsafeRawPointer(initial.baseAddress)?.assumingMemoryBound(to: CChar.self),
                initial.count, source.callbacks)
        }
        guard status == 0 else {
            descriptor.deallocate()
            file.deallocate()
            throw DecoderError.network(source.refusal(status), code: status)
        }
        try self.init(
            path: name, file: file, descriptor: descriptor, owner: source.owner, ending: .whole, playsAsStream: false,
            sourceFailure: source.failure)
    }

    /// The current link's nominal bit rate from its identification header (bits a second; 0 when
    /// unknown).
    public var nominalBitrate: Int { format.sampleRate > 0 ? currentNominalBitrate : 0 }
}
