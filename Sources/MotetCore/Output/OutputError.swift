import Glibc

/// Why an output could not be opened or written: one line saying what failed, why, and what to do.
public struct OutputError: Error, CustomStringConvertible, Sendable {
    /// The line to show the user.
    public var description: String

    /// An error with the line to show the user.
    public init(_ description: String) {
        self.description = description
    }

    /// The system's text for an errno value.
    static func text(errno code: Int32) -> String {
        String(cString: strerror(code))
    }
}
