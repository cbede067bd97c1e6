import MotetNetwork

/// How a decoder's input ends, each said once, for both codecs: the callback source's failure (a
/// network stream that gave up: the library reads a failed read as the end), or a file whose last
/// page is cut off (`truncation`, found when it was opened and said after its last good frame).
struct DecodeEnding {
    /// Why the callback source failed, when it did; nil for a file.
    private let sourceFailure: (() -> NetworkError?)?
    /// The source's failure was handed out.
    private var sourceFailureSaid = false
    /// Said once at the end; cleared when decoding fails for another reason first.
    var truncation: DecoderError?

    init(sourceFailure: (() -> NetworkError?)?, truncation: DecoderError?) {
        self.sourceFailure = sourceFailure
        self.truncation = truncation
    }

    /// The callback source's failure, the first time it is asked after the source failed: the
    /// network's cause, with the library's `code` (or `DecoderError.motetCode` when it saw an end).
    mutating func sourceFailed(code: Int32) -> DecoderError? {
        guard !sourceFailureSaid, let cause = sourceFailure?() else { return nil }
        sourceFailureSaid = true
        return .network(cause, code: code)
    }

    /// The end of the input: a source's failure or a truncated file's error once, then `.endOfStream`.
    mutating func end() -> DecodeStep {
        if let failed = sourceFailed(code: DecoderError.motetCode) { return .failed(failed) }
        guard let truncation else { return .endOfStream }
        self.truncation = nil
        return .failed(truncation)
    }
}
