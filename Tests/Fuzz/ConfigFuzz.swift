// libFuzzer target: the config-file parser.

@testable import MotetConfiguration

/// One input: the bytes of a config file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    do {
        let contents = try ConfigFileReader.parse(bytes, path: "fuzz.conf")
        for warning in contents.warnings { precondition(isOneLine(warning), "warning is not one line: \(warning)") }
    } catch {
        let line = error.usageError.description
        precondition(isOneLine(line), "error is not one line: \(line)")
    }
    return 0
}

/// True when `text` holds no control character (it prints as one line on a terminal).
func isOneLine(_ text: String) -> Bool {
    !text.unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7f && $0.value < 0xa0) }
}
