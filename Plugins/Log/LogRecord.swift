/// One log line before it is rendered: a level, an event name and ordered fields.
/// Absent values are simply not added, so neither format ever invents one.
struct LogRecord {
    /// A field's value; each format renders the kinds differently.
    enum Value {
        /// Tag or file text (hostile: escaped by both formats).
        case text(String)
        /// A fixed vocabulary word such as `playing` or `corked`.
        case word(String)
        /// A time span in microseconds: `3:05.2` in text, seconds in JSON.
        case micros(Int64)
        case integer(Int64)
        case number(Double)
        case flag(Bool)
        /// Several tag texts (e.g. the artists).
        case texts([String])
    }

    var level: LogLevel
    var event: String
    var fields: [(key: String, value: Value)] = []

    init(_ level: LogLevel, _ event: String) {
        self.level = level
        self.event = event
    }

    mutating func add(_ key: String, _ value: Value) { fields.append((key, value)) }

    /// Adds a text field only when the text exists.
    mutating func add(_ key: String, text: String?) {
        if let text { fields.append((key, .text(text))) }
    }
}
