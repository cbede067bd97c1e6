import CMicroHTTPD
import MotetPluginKit

#if canImport(Glibc)
import Glibc
#endif

/// The clients of `GET /api/events` (Server-Sent Events) and what each has yet to receive.
///
/// libmicrohttpd's thread asks for a client's next bytes when its socket can take them
/// (`read`); with nothing to send the connection is suspended, so that no thread wakes for it,
/// and `broadcast` (on the broadcaster's thread) resumes it when a change comes. A client that
/// does not read falls behind: once more than `WebLimits.pendingEventBytes` wait for it, its
/// connection is shut down, and the others and the music never wait for it.
final class EventStream: Sendable {
    /// One client. Touched only under the stream's lock.
    final class Client: @unchecked Sendable {
        let connection: OpaquePointer
        let stream: EventStream
        var pending: [UInt8]
        /// libmicrohttpd holds the connection suspended until we resume it.
        var suspended = false
        var dropped = false

        init(connection: OpaquePointer, stream: EventStream, pending: [UInt8]) {
            self.connection = connection
            self.stream = stream
            self.pending = pending
        }
    }

    private struct State {
        var clients: [Client] = []
        var stopping = false
        var droppedCount = 0
    }

    private let state = Locked(State())
    /// Told how many clients there are, after each change of that number.
    private let clientsChanged: @Sendable (Int) -> Void
    /// Told (outside the lock) each time a client is dropped for not reading.
    private let clientDropped: @Sendable () -> Void

    /// The kernel's send buffer for an event stream's socket: small, so that a client that does
    /// not read is noticed after a few states rather than megabytes (Linux grows a loopback
    /// socket's buffer to megabytes otherwise), and memory per client stays bounded.
    static let socketSendBuffer: Int32 = 32 * 1024

    init(clientsChanged: @escaping @Sendable (Int) -> Void, clientDropped: @escaping @Sendable () -> Void) {
        self.clientsChanged = clientsChanged
        self.clientDropped = clientDropped
    }

    /// A response that streams events to `connection`, starting with `first` (the current state).
    func open(_ connection: OpaquePointer, first: [UInt8]) -> OpaquePointer? {
        let fd = motet_mhd_connection_fd(connection)
        if fd >= 0 {
            var size = Self.socketSendBuffer
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let client = Client(connection: connection, stream: self, pending: first)
        let count: Int? = state.withLock { s in
            guard !s.stopping else { return nil }
            s.clients.append(client)
            return s.clients.count
        }
        guard let count else { return nil }
        let context = Unmanaged.passRetained(client).toOpaque()
        let response = MHD_create_response_from_callback(
            UInt64.max, 4096,
            { context, _, buffer, max in
                let client = Unmanaged<Client>.fromOpaque(context!).takeUnretainedValue()
                return client.stream.read(client, into: buffer!, max: max)
            },
            context,
            { context in
                let client = Unmanaged<Client>.fromOpaque(context!).takeRetainedValue()
                client.stream.remove(client.connection)
            })
        guard let response else {
            Unmanaged<Client>.fromOpaque(context).release()
            remove(connection)
            return nil
        }
        clientsChanged(count)
        return response
    }

    /// libmicrohttpd's thread: the next bytes for `client`, 0 after suspending it when there are
    /// none, -2 (MHD_CONTENT_READER_END_WITH_ERROR) to close it.
    private func read(_ client: Client, into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        state.withLock { s in
            if s.stopping || client.dropped { return -2 }
            if client.pending.isEmpty {
                client.suspended = true
                MHD_suspend_connection(client.connection)
                return 0
            }
            let n = min(max, client.pending.count)
            client.pending.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: n) }
            client.pending.removeFirst(n)
            return n
        }
    }

    /// Queues `frame` for every client and wakes those that were waiting. Never waits for one.
    func broadcast(_ frame: [UInt8]) {
        var resume: [OpaquePointer] = []
        let dropped = state.withLock { s in
            let before = s.droppedCount
            for client in s.clients where !client.dropped {
                if client.pending.count + frame.count > WebLimits.pendingEventBytes {
                    drop(client, &s, resume: &resume)
                    continue
                }
                client.pending.append(contentsOf: frame)
                if client.suspended {
                    client.suspended = false
                    resume.append(client.connection)
                }
            }
            return s.droppedCount - before
        }
        // A suspended connection stays until it is resumed (libmicrohttpd neither reads nor
        // closes it meanwhile), so resuming outside the lock cannot touch a closed one.
        for connection in resume { MHD_resume_connection(connection) }
        for _ in 0..<dropped { clientDropped() }
    }

    /// Stops queueing for a client that does not read. A suspended one is resumed to be closed by
    /// `read`; a blocked one has its socket shut down, which libmicrohttpd's thread sees as an
    /// error and closes. The connection is still open: it is removed from `clients` (under this
    /// lock) before libmicrohttpd closes its socket.
    private func drop(_ client: Client, _ s: inout State, resume: inout [OpaquePointer]) {
        client.dropped = true
        client.pending = []
        s.droppedCount += 1
        if client.suspended {
            client.suspended = false
            resume.append(client.connection)
        } else {
            let fd = motet_mhd_connection_fd(client.connection)
            if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    /// Forgets a connection: its response was freed, or libmicrohttpd is closing it.
    func remove(_ connection: OpaquePointer) {
        let count: Int? = state.withLock { s in
            guard let i = s.clients.firstIndex(where: { $0.connection == connection }) else { return nil }
            s.clients.remove(at: i)
            return s.clients.count
        }
        if let count { clientsChanged(count) }
    }

    /// How many clients were dropped for not reading.
    var droppedCount: Int { state.withLock { $0.droppedCount } }

    /// Ends every stream (before the daemon stops: libmicrohttpd must not stop with suspended
    /// connections).
    func stop() {
        let resume: [OpaquePointer] = state.withLock { s in
            s.stopping = true
            let suspended = s.clients.filter(\.suspended)
            for c in suspended { c.suspended = false }
            return suspended.map(\.connection)
        }
        for connection in resume { MHD_resume_connection(connection) }
    }
}
