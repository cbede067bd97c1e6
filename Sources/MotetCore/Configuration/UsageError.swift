/// One user-facing error in the command line or the config file.
///
/// ``description`` is one line, starting with `motet: `, that names the option (or `FILE:LINE` and
/// the key), the offending value, and what is allowed. Print it to standard error and exit with
/// ``exitCode``.
public struct UsageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The message for the user.
    public var description: String
    /// 64, `EX_USAGE` from sysexits.h (``ExitStatus/usage``).
    public var exitCode: Int32 { ExitStatus.usage.rawValue }

    /// An error with the given message.
    public init(_ description: String) {
        self.description = description
    }
}
