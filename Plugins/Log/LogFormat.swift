import MotetPluginKit

/// How a `LogRecord` becomes one line of bytes (the trailing newline included).
enum LogFormat {
    /// `2026-11-30T13:45:01.123Z info    now-playing title="Song" artist="A" duration=3:05 liked=no`
    case text
    /// One JSON object per line: `{"time":"…","level":"info","event":"now-playing","title":"Song",…}`
    case json

    /// Parses the `format=` option.
    init?(option: String) {
        switch option.lowercased() {
        case "text": self = .text
        case "json": self = .json
        default: return nil
        }
    }

    /// Renders `record` stamped with `time`.
    func render(_ record: LogRecord, time: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        switch self {
        case .text:
            out.append(contentsOf: time.utf8)
            out.append(UInt8(ascii: " "))
            let level = record.level.name
            out.append(contentsOf: level.utf8)
            out.append(contentsOf: [UInt8](repeating: UInt8(ascii: " "), count: max(1, 8 - level.utf8.count)))
            out.append(contentsOf: record.event.utf8)
            for field in record.fields {
                out.append(UInt8(ascii: " "))
                out.append(contentsOf: field.key.utf8)
                out.append(UInt8(ascii: "="))
                Self.appendText(field.value, to: &out)
            }
        case .json:
            out.append(contentsOf: "{\"time\":\"\(time)\",\"level\":\"\(record.level.name)\",\"event\":".utf8)
            JSONString.append(record.event, to: &out)
            for field in record.fields {
                out.append(UInt8(ascii: ","))
                JSONString.append(field.key, to: &out)
                out.append(UInt8(ascii: ":"))
                Self.appendJSON(field.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "\n"))
        return out
    }

    private static func appendText(_ value: LogRecord.Value, to out: inout [UInt8]) {
        switch value {
        case .text(let s): TextEscaping.appendQuotedText(s, to: &out)
        case .word(let w): out.append(contentsOf: w.utf8)
        case .micros(let us): out.append(contentsOf: clock(us).utf8)
        case .integer(let i): out.append(contentsOf: "\(i)".utf8)
        case .number(let d): out.append(contentsOf: (d.isFinite ? "\(d)" : "nan").utf8)
        case .flag(let b): out.append(contentsOf: (b ? "yes" : "no").utf8)
        case .texts(let list):
            for (i, s) in list.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                TextEscaping.appendQuotedText(s, to: &out)
            }
        }
    }

    private static func appendJSON(_ value: LogRecord.Value, to out: inout [UInt8]) {
        switch value {
        case .text(let s), .word(let s): JSONString.append(s, to: &out)
        case .micros(let us): out.append(contentsOf: seconds(us).utf8)
        case .integer(let i): out.append(contentsOf: "\(i)".utf8)
        case .number(let d): out.append(contentsOf: (d.isFinite ? "\(d)" : "null").utf8)
        case .flag(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .texts(let list):
            out.append(UInt8(ascii: "["))
            for (i, s) in list.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONString.append(s, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    /// Microseconds as seconds with millisecond precision: `185.250`.
    static func seconds(_ us: Int64) -> String {
        let sign = us < 0 ? "-" : ""
        let ms = (us < 0 ? 0 &- us : us) / 1000
        let frac = ms % 1000
        let pad = frac < 10 ? "00" : frac < 100 ? "0" : ""
        return "\(sign)\(ms / 1000).\(pad)\(frac)"
    }

    /// Microseconds as a clock for people: `3:05.2`, `1:02:03.0`.
    static func clock(_ us: Int64) -> String {
        let sign = us < 0 ? "-" : ""
        let tenths = (us < 0 ? 0 &- us : us) / 100_000
        let totalSeconds = tenths / 10
        let s = totalSeconds % 60
        let m = (totalSeconds / 60) % 60
        let h = totalSeconds / 3600
        let ss = s < 10 ? "0\(s)" : "\(s)"
        if h > 0 {
            let mm = m < 10 ? "0\(m)" : "\(m)"
            return "\(sign)\(h):\(mm):\(ss).\(tenths % 10)"
        }
        return "\(sign)\(m):\(ss).\(tenths % 10)"
    }
}
