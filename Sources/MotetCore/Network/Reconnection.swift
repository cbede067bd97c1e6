import MotetSystem
/// The back-off of a lost stream (the network thread's own state): the first loss is said once,
/// attempts wait 1, 2, 4 … 30 s (`NetworkOptions.backoff`), and after `limit` from the loss the
/// stream is given up. Once it flows again the back-off starts over.
struct Reconnection {
    let limit: Duration
    /// When the stream was lost (nil while it flows).
    private(set) var lostSince: MonotonicInstant?
    /// Why it was first lost.
    private(set) var cause: NetworkError?
    private var attempt = 0

    enum Step: Equatable {
        /// Try again after this wait; `first` for the loss that starts the back-off.
        case retry(after: Duration, first: Bool)
        case giveUp(NetworkError)
    }

    /// Whether a response was ever accepted, and any of the body has arrived since, on any
    /// connection.
    private var answered = false
    private var audioArrived = false

    init(limit: Duration) { self.limit = limit }

    /// A response was accepted.
    mutating func accepted() { answered = true }

    /// Some of the body arrived.
    mutating func arrived() { audioArrived = true }

    /// Headers, then silence (`problem` is a timeout: nothing for `timeout`) or a close, and
    /// no audio ever: the error that says so, not retried — there is nothing to get back to, and a
    /// server without a source answers the same way again. Nil otherwise.
    func neverSent(_ problem: NetworkError, closed: Bool, timeout: Duration) -> NetworkError? {
        guard answered, !audioArrived, closed || problem == .timedOut else { return nil }
        return .noAudio(after: closed ? nil : timeout)
    }

    /// The transfer failed with `problem` at `now`: what to do.
    mutating func lost(_ problem: NetworkError, now: MonotonicInstant) -> Step {
        let first = lostSince == nil
        if first {
            lostSince = now
            cause = problem
        }
        let elapsed = now - (lostSince ?? now)
        if elapsed >= limit { return .giveUp(.gaveUp(after: limit, cause: cause ?? problem)) }
        let delay = min(NetworkOptions.backoff(attempt: attempt), limit - elapsed)
        attempt += 1
        return .retry(after: delay, first: first)
    }

    /// The stream flows again: true when it had been lost (say that it is back).
    mutating func recovered() -> Bool {
        guard lostSince != nil else { return false }
        lostSince = nil
        attempt = 0
        return true
    }
}
