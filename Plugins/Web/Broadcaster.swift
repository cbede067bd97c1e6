import WaitingThread

/// The plugin's own thread that turns changes into events for the stream's clients, so that the
/// host's `on_event` only records the change and signals (it never encodes or sends). With no
/// client it sleeps without a deadline and is not even signalled: no client, no wake-up. With
/// clients it sends each change once (a burst of changes becomes one event with the last
/// state), and a keep-alive comment after `WebLimits.keepAliveSeconds` without one.
final class Broadcaster: @unchecked Sendable {
    // Unchecked: `changed` and `clients` are only touched with the thread's lock held.
    private let thread = WaitingThread()
    private var changed = false
    private var clients = 0
    private let frame: @Sendable () -> [UInt8]
    private let send: @Sendable ([UInt8]) -> Void

    static let keepAlive = Array(": keep-alive\n\n".utf8)

    /// `frame` makes the event with the current state; `send` hands bytes to every client.
    init(frame: @escaping @Sendable () -> [UInt8], send: @escaping @Sendable ([UInt8]) -> Void) {
        self.frame = frame
        self.send = send
    }

    deinit { stop() }

    /// The state changed: send it to the clients, if there are any.
    func stateChanged() {
        thread.lock()
        if clients > 0 {
            changed = true
            thread.signal()
        }
        thread.unlock()
    }

    /// The number of clients changed (the keep-alive runs only while there are some).
    func clientsChanged(_ count: Int) {
        thread.lock()
        let wasIdle = clients == 0
        clients = count
        if wasIdle && count > 0 { thread.signal() }
        thread.unlock()
    }

    /// Starts the thread (`web-broadcast`); false when the system refuses one.
    func start() -> Bool { thread.start(name: "web-broadcast") { [self] in run() } }

    /// Stops and joins the thread. Safe to call twice, and before `start`.
    func stop() { thread.stop() }

    private func run() {
        let keepAliveMicros = WebLimits.keepAliveSeconds * 1_000_000
        var due = WaitingThread.now(plusMicros: keepAliveMicros)
        thread.lock()
        while !thread.stopping {
            if changed {
                changed = false
                thread.unlock()
                send(frame())
                due = WaitingThread.now(plusMicros: keepAliveMicros)
                thread.lock()
            } else if clients == 0 {
                _ = thread.wait(until: nil)
                due = WaitingThread.now(plusMicros: keepAliveMicros)
            } else if thread.wait(until: due), !changed, !thread.stopping, clients > 0 {
                thread.unlock()
                send(Self.keepAlive)
                due = WaitingThread.now(plusMicros: keepAliveMicros)
                thread.lock()
            }
        }
        thread.unlock()
    }
}
