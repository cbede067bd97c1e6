import Glibc

/// Why an output could not be opened or written: one line saying what failed, why, and what to do.
public struct OutputError: Error, CustomStringConvertible, Sendable {
    /// The line to show the user.
    public var description: String
    /// True when the output can take nothing more (a WAV file that cannot be written: disk full,
    /// read-only file system, I/O error): the player shows the line, stops, and exits with status 1.
    /// False for a problem with one stream (a format the device cannot play): playback goes on.
    public var endsPlayback: Bool

    /// An error with the line to show the user.
    public init(_ description: String, endsPlayback: Bool = false) {
        self.description = description
        self.endsPlayback = endsPlayback
    }

    /// The system's text for an errno value.
    static func text(errno code: Int32) -> String {
        String(cString: strerror(code))
    }
}
