/// `--status`: how the player reports what it is doing.
public enum StatusLineSetting: String, Sendable, CaseIterable {
    /// ``line`` when standard output is a terminal, ``events`` otherwise.
    case auto
    /// A redrawn status line with the keyboard controls.
    case line
    /// Plain one-line events, one per change.
    case events
    /// Nothing but warnings and errors.
    case quiet
}
