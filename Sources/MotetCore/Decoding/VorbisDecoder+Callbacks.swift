import CVorbisFile
import MotetNetwork

/// A data source libvorbisfile reads through callbacks of its owner's (a stream over the network):
/// what `VorbisDecoder.init(name:source:)` opens.
public struct CallbackSource {
    /// libvorbisfile's `datasource`, handed to every callback.
    public var datasource: UnsafeMutableRawPointer
    /// The callbacks; no `seek_func` for a stream that cannot seek (read link after link).
    public var callbacks: ov_callbacks
    /// Kept alive as long as the decoder (the callbacks' data source belongs to it).
    public var owner: AnyObject
    /// Why the data is not what libvorbisfile takes, when it refuses it (its `OV_*` code).
    public var refusal: (Int32) -> NetworkError
    /// Why the source failed, when it did: a read that fails (or ends) is then the source's failure.
    public var failure: () -> NetworkError?

    public init(
        datasource: UnsafeMutableRawPointer, callbacks: ov_callbacks, owner: AnyObject, refusal: @escaping (Int32) -> NetworkError,
        failure: @escaping () -> NetworkError?
    ) {
        self.datasource = datasource
        self.callbacks = callbacks
        self.owner = owner
        self.refusal = refusal
        self.failure = failure
    }
}

extension VorbisDecoder {
    /// Opens a callback source named `name` (its URL, as shown). Throws `source.refusal`'s cause
    /// with libvorbisfile's code when libvorbisfile refuses it (after which its `close_func` has
    /// not been called).
    public convenience init(name: String, source: CallbackSource) throws(DecoderError) {
        let descriptor = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        descriptor.initialize(to: -1)
        let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
        let status = ov_open_callbacks(source.datasource, file, nil, 0, source.callbacks)
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
