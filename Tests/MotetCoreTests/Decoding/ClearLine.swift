import MotetDecoding
import Testing

/// The error `open` throws for `path`, or a recorded issue when it opens.
func errorOpening(_ path: String, with open: (String) throws(DecoderError) -> Void, sourceLocation: SourceLocation = #_sourceLocation)
    -> DecoderError?
{
    do {
        try open(path)
        Issue.record("\(path) opened", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// One line, naming the file, with advice after the dash.
func expectClearLine(_ error: DecoderError?, path: String, saying words: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let error else { return }
    let line = error.line(path: path)
    #expect(line.hasPrefix(path + ": "), "\(line)", sourceLocation: sourceLocation)
    #expect(line.contains(words), "\(line)", sourceLocation: sourceLocation)
    #expect(line.contains(" — "), "\(line)", sourceLocation: sourceLocation)
    #expect(!line.contains("\n"), "\(line)", sourceLocation: sourceLocation)
}
