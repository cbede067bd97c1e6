import MotetSystem

/// A rating that could not be saved (or a feedback file that could not be read before saving).
public struct FeedbackError: Error, CustomStringConvertible, Sendable, Equatable {
    /// One line for the user, starting with `motet: `, naming the file, the reason and what to do.
    public var description: String

    /// An error with the given message.
    public init(_ description: String) {
        self.description = description
    }
}
