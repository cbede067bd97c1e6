// libFuzzer target: the `--plugin NAME[:KEY=VALUE,…]` parser.

@testable import MotetConfiguration

/// One input: the text of a `--plugin` argument (invalid UTF-8 repaired, as the command line does).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPluginSpec(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let spec = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
    do throws(ParseProblem) {
        let (name, options) = try PluginSpecParser.parse(spec)
        precondition(!name.isEmpty)
        for option in options { precondition(!option.key.isEmpty) }
        _ = PluginSpecParser.defaultInstanceName(for: name)
    } catch {
        let line = MessageRenderer.render(error, at: .commandLine(option: "--plugin")).description
        precondition(!line.unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7f && $0.value < 0xa0) },
            "error is not one line: \(line)")
    }
    _ = try? PluginSpecParser.validateName(spec, spec: spec)
    _ = PluginSpecParser.defaultInstanceName(for: spec)
    return 0
}
