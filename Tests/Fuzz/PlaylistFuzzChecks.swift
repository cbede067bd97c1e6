// Shared by the pls and xspf harnesses (compiled into both by bench/fuzz.sh).

@testable import MotetConfiguration
import MotetEvents
import MotetNetwork

enum FuzzChecks {
    /// Resolution against a URL gives a path, a usable URL or a one-line reason; a URL's display
    /// form never carries its credentials.
    static func resolve(_ entry: String, against base: WebAddress, uriReference: Bool) {
        switch PlaylistReader.resolve(entry, against: .address(base), uriReference: uriReference) {
        case .path(let path):
            precondition(path.hasPrefix("/") && !path.contains("\0"))
        case .url(let address):
            precondition(address.scheme != .file && !address.host.isEmpty)
            if let userInfo = address.userInfo {
                precondition(!address.displayText.hasPrefix(address.scheme.rawValue + "://" + userInfo + "@"))
            }
            precondition(WebAddress(address.text)?.text == address.text, "a URL's text parses back to itself")
        case .unsupported(let reason):
            precondition(!reason.isEmpty && !reason.contains("\n"))
        }
    }
}
