import CMicroHTTPD
import MotetPluginKit
import NowPlayingJSON

#if canImport(Glibc)
import Glibc
#endif

/// libmicrohttpd on a polling thread of its own (epoll), in front of the `Router`. It parses
/// HTTP; this file only copies what the router needs out of each request, enforces the body and
/// rate limits, and turns the router's answer into a response.
final class WebServer: @unchecked Sendable {
    // Unchecked: `daemon` is set in start() before any callback can run and cleared in stop()
    // after the daemon's thread is gone; everything else is immutable or Sendable.
    private let router: Router
    let stream: EventStream
    private let firstEvent: @Sendable () -> [UInt8]
    private let limiter = RateLimiter()
    private var daemon: OpaquePointer?

    /// Per request: its body so far. Lives from the first call of the handler to the completed
    /// callback.
    private final class PendingRequest {
        var body: [UInt8] = []
        var tooLarge = false
        var refusal: WebResponse?
    }

    init(router: Router, stream: EventStream, firstEvent: @escaping @Sendable () -> [UInt8]) {
        self.router = router
        self.stream = stream
        self.firstEvent = firstEvent
    }

    /// Binds and starts the thread, or says why not.
    func start(_ listen: ListenAddress) -> String? {
        let context = Unmanaged.passUnretained(self).toOpaque()
        daemon = listen.withSocketAddress { address in
            var settings = motet_mhd_settings(
                address: address, connection_limit: WebLimits.connections, per_address_limit: WebLimits.connectionsPerAddress,
                timeout_seconds: WebLimits.idleSeconds, memory_limit: WebLimits.connectionMemory,
                handler: { context, connection, url, method, _, upload, uploadSize, requestContext in
                    Unmanaged<WebServer>.fromOpaque(context!).takeUnretainedValue().handle(
                        connection!, url: url!, method: method!, upload: upload, uploadSize: uploadSize!,
                        requestContext: requestContext!)
                },
                handler_context: context,
                completed: { _, _, requestContext, _ in
                    if let pending = requestContext?.pointee {
                        Unmanaged<PendingRequest>.fromOpaque(pending).release()
                        requestContext?.pointee = nil
                    }
                },
                connection_notify: { context, connection, _, what in
                    guard what == .CONNECTION_NOTIFY_CLOSED, let connection else { return }
                    Unmanaged<WebServer>.fromOpaque(context!).takeUnretainedValue().stream.remove(connection)
                },
                notify_context: context)
            return motet_mhd_start(&settings)
        }
        guard daemon != nil else {
            return "cannot listen on \(listen.hostHeader): \(String(cString: strerror(errno))) (listen= chooses another address or port)"
        }
        return nil
    }

    /// Ends the event streams, then stops the daemon and joins its thread.
    func stop() {
        stream.stop()
        if let daemon {
            MHD_stop_daemon(daemon)
            self.daemon = nil
        }
    }

    private func handle(
        _ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, upload: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let existing = requestContext.pointee else {
            // The first call, with the headers only.
            let pending = PendingRequest()
            if !limiter.allow(Self.clientAddress(connection), nowMicros: Clock.monotonicMicros()) {
                pending.refusal = .error(429, "too many requests; wait a moment")
            } else if let length = Self.header(connection, "Content-Length").flatMap({ Int($0) }), length > WebLimits.bodyBytes {
                pending.refusal = .error(413, "the body is larger than \(WebLimits.bodyBytes) bytes")
            }
            requestContext.pointee = Unmanaged.passRetained(pending).toOpaque()
            return .YES
        }
        let pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if let upload, pending.refusal == nil, !pending.tooLarge {
                if pending.body.count + uploadSize.pointee > WebLimits.bodyBytes {
                    pending.tooLarge = true
                    pending.body = []
                } else {
                    pending.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee))
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        if let refusal = pending.refusal { return queue(refusal, on: connection) }
        if pending.tooLarge { return queue(.error(413, "the body is larger than \(WebLimits.bodyBytes) bytes"), on: connection) }
        var token = Self.header(connection, "X-Motet-Token")
        if token == nil, let auth = Self.header(connection, "Authorization"), auth.hasPrefix("Bearer ") {
            token = String(auth.dropFirst("Bearer ".count))
        }
        let request = WebRequest(
            method: String(cString: method), path: String(cString: url),
            queryToken: Self.value(connection, .GET_ARGUMENT_KIND, "token"), headerToken: token,
            origin: Self.header(connection, "Origin"), host: Self.header(connection, "Host"), body: pending.body)
        return queue(router.respond(to: request), on: connection)
    }

    private func queue(_ answer: WebResponse, on connection: OpaquePointer) -> MHD_Result {
        switch answer {
        case .eventStream:
            guard let response = stream.open(connection, first: firstEvent()) else {
                return queue(.error(503, "the server is stopping"), on: connection)
            }
            MHD_add_response_header(response, "Content-Type", "text/event-stream")
            MHD_add_response_header(response, "Cache-Control", "no-store")
            MHD_add_response_header(response, "X-Accel-Buffering", "no")
            let result = MHD_queue_response(connection, 200, response)
            MHD_destroy_response(response)
            return result
        case .full(let status, let contentType, let body, let allow):
            let response = body.withUnsafeBytes { raw in
                MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
            }
            guard let response else { return .NO }
            MHD_add_response_header(response, "Content-Type", contentType)
            MHD_add_response_header(response, "Cache-Control", "no-store")
            MHD_add_response_header(response, "X-Content-Type-Options", "nosniff")
            MHD_add_response_header(response, "Referrer-Policy", "no-referrer")
            MHD_add_response_header(
                response, "Content-Security-Policy",
                "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; frame-ancestors 'none'")
            if let allow { MHD_add_response_header(response, "Allow", allow) }
            let result = MHD_queue_response(connection, UInt32(status), response)
            MHD_destroy_response(response)
            return result
        }
    }

    private static func header(_ connection: OpaquePointer, _ name: String) -> String? {
        value(connection, .HEADER_KIND, name)
    }

    private static func value(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, kind, name).map { String(cString: $0) }
    }

    /// The client's address as text (the rate limit's key).
    private static func clientAddress(_ connection: OpaquePointer) -> String {
        var storage = sockaddr_storage()
        let length = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                motet_mhd_client_address(connection, $0, socklen_t(MemoryLayout<sockaddr_storage>.size))
            }
        }
        guard length > 0 else { return "?" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = Int32(storage.ss_family)
        let copy = storage
        withUnsafeBytes(of: copy) { raw in
            if family == AF_INET6 {
                var addr = raw.load(as: sockaddr_in6.self).sin6_addr
                _ = inet_ntop(AF_INET6, &addr, &text, socklen_t(text.count))
            } else {
                var addr = raw.load(as: sockaddr_in.self).sin_addr
                _ = inet_ntop(AF_INET, &addr, &text, socklen_t(text.count))
            }
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
