import MotetEvents
import MotetSystem

/// What a stream says that is no error, typed: lost and reconnecting, back, or buffering because
/// the connection is too slow. `line(url:)` renders every case in one place as the console's line.
public enum NetworkNotice: Sendable, Equatable {
    /// The stream was lost (`cause`, said by its `NetworkError.lossReason`); reconnecting for up to
    /// the span given.
    case lost(NetworkError, reconnectingFor: Duration)
    /// A reconnected stream flows again.
    case back
    /// The reader has waited a while for the pre-buffer and the bytes come (`givesBytesPerSecond`)
    /// slower than the stream needs (`needsBytesPerSecond`; nil while unknown, then the wait is for
    /// `prebuffer` of audio).
    case buffering(givesBytesPerSecond: Double, needsBytesPerSecond: Double?, prebuffer: Duration)

    /// The one line for users: `"<url>: <what happens>"`, the URL without any `user:password@`.
    public func line(url: String) -> String {
        "\(WebAddress.shown(url)): " + text
    }

    private var text: String {
        switch self {
        case .lost(let cause, let span):
            "the stream was lost (\(cause.lossReason)); reconnecting for up to \(span.secondsText) s"
        case .back:
            "the stream is back; playing on"
        case .buffering(let gives, let needs, let prebuffer):
            if let needs {
                "buffering (the connection gives \(ArrivalRate.kilobytes(perSecond: gives)), the stream needs "
                    + "\(ArrivalRate.kilobytes(perSecond: needs))) — "
                    + "the connection is too slow for this stream; pick a lower bit rate if the station offers one"
            } else {
                // Before the stream's own rate is known, the speed alone: a quiet station is slow too.
                "buffering (the connection gives \(ArrivalRate.kilobytes(perSecond: gives)); waiting for \(prebuffer.secondsText) s of audio)"
            }
        }
    }
}
