#if canImport(Glibc)
import Glibc
#endif
import CNetwork
import MotetEvents

/// One HTTP request with libcurl's easy interface, on the calling thread, with the options every
/// transfer of Motet's uses: bounded redirects (http and https only), the system's CA store
/// (libcurl's default), the proxies of `http_proxy`/`https_proxy`/`no_proxy` (libcurl reads them
/// itself: nothing here turns that off), `User-Agent: Motet/<version>`, connect and low-speed
/// timeouts, no signals.
///
/// The delegate closures run on that thread: `head` once the final response's header is complete
/// (return an error to refuse it), `body` for each piece of the body (return false to stop),
/// `between` after each round of reads and about once a second otherwise (it may wait: the
/// stream's pacing; true stops the transfer).
final class CurlTransfer {
    var head = ResponseHead()
    /// Set by the closures (or for a too-long header) to say why the transfer was stopped.
    var refusal: NetworkError?
    private(set) var accepted = false
    /// The URL after redirects (set by `perform`).
    private(set) var effectiveURL: String?
    private let onHead: (ResponseHead) -> NetworkError?
    private let onBody: (UnsafeRawBufferPointer) -> Bool
    private let between: () -> Bool

    init(
        onHead: @escaping (ResponseHead) -> NetworkError?, onBody: @escaping (UnsafeRawBufferPointer) -> Bool,
        between: @escaping () -> Bool
    ) {
        self.onHead = onHead
        self.onBody = onBody
        self.between = between
    }

    /// libcurl's receive buffer: a second of a 1 Mbit/s stream.
    static let readSize = 128 * 1024

    /// Loads libcurl (once); the error when it cannot be.
    static func load() -> NetworkError? {
        motet_curl_load() == 0 ? nil : .libraryMissing(String(cString: motet_curl_error()))
    }

    /// Performs the request from byte `offset` (a Range request when above 0). nil when the whole
    /// body arrived; else why not (`refusal` when a closure stopped it).
    func perform(url: String, offset: Int64, options: NetworkOptions) -> NetworkError? {
        if let missing = Self.load() { return missing }
        guard let handle = motet_curl_easy_init() else { return .transfer("libcurl cannot start a transfer") }
        defer { motet_curl_easy_cleanup(handle) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        let me = Unmanaged.passUnretained(self).toOpaque()

        _ = motet_curl_setopt_string(handle, CURLOPT_URL, url)
        _ = motet_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = motet_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
        _ = motet_curl_setopt_long(handle, CURLOPT_MAXREDIRS, NetworkOptions.maximumRedirects)
        _ = motet_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = motet_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = motet_curl_setopt_string(handle, CURLOPT_USERAGENT, options.userAgent)
        _ = motet_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, Int(options.timeout.components.seconds))
        _ = motet_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, NetworkOptions.lowSpeedBytesPerSecond)
        _ = motet_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, Int(options.timeout.components.seconds))
        _ = motet_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = motet_curl_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1)
        // After a nap of the stream's pacing, one read takes what the socket gathered.
        _ = motet_curl_setopt_long(handle, CURLOPT_BUFFERSIZE, CurlTransfer.readSize)
        if offset > 0 { _ = motet_curl_setopt_offset(handle, CURLOPT_RESUME_FROM_LARGE, curl_off_t(offset)) }
        _ = motet_curl_setopt_write_function(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
            return transfer.header(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
        }
        _ = motet_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, me)
        _ = motet_curl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
            return transfer.body(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
        }
        _ = motet_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, me)
        _ = motet_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        _ = motet_curl_setopt_xferinfo_function(handle) { context, _, _, _, _ in
            Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().between() ? 1 : 0
        }
        _ = motet_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, me)

        let code = motet_curl_easy_perform(handle)
        var effective: UnsafePointer<CChar>?
        if motet_curl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective) == CURLE_OK, let effective {
            effectiveURL = String(cString: effective)
        }
        if code == CURLE_OK {
            // A response that ended without a body (e.g. a 204) still gets its check.
            if !accepted, let refusal = head.isComplete ? onHead(head) : NetworkError.transfer("no response") { return refusal }
            return nil
        }
        if let refusal { return refusal }
        var systemError = 0
        if code == CURLE_COULDNT_CONNECT, motet_curl_getinfo_long(handle, CURLINFO_OS_ERRNO, &systemError) == CURLE_OK, systemError != 0,
            let words = strerror(Int32(systemError))
        {
            return .connectionFailed(String(cString: words).lowercased())
        }
        let text = String(cString: errorBuffer)
        return Self.error(for: code, text: text.isEmpty ? String(cString: motet_curl_easy_strerror(code)) : text, url: url, head: head)
    }

    private func header(_ line: UnsafeRawBufferPointer) -> Bool {
        head.add(line: line)
        if head.isTooLong {
            refusal = .headerTooLong
            return false
        }
        guard head.isComplete, !head.isRedirect, head.status >= 200 else { return true }
        if let problem = onHead(head) {
            refusal = problem
            return false
        }
        accepted = true
        return true
    }

    private func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if !accepted {
            // A body without a complete header (HTTP/0.9-like garbage is refused by libcurl).
            if let problem = onHead(head) {
                refusal = problem
                return false
            }
            accepted = true
        }
        return onBody(bytes)
    }

    /// libcurl's result code in Motet's words.
    static func error(for code: CURLcode, text: String, url: String, head: ResponseHead) -> NetworkError {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST: return .hostNotFound(WebAddress(url)?.host ?? "")
        case CURLE_COULDNT_RESOLVE_PROXY: return .connectionFailed("the proxy's name was not found: \(text)")
        case CURLE_COULDNT_CONNECT: return .connectionFailed(text.lowercased().includes("refused") ? "connection refused" : text)
        case CURLE_TOO_MANY_REDIRECTS: return .redirectLoop
        case CURLE_OPERATION_TIMEDOUT: return .timedOut
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return .tls(text)
        case CURLE_UNSUPPORTED_PROTOCOL: return .transfer("only http:// and https:// are played: \(text)")
        case CURLE_OUT_OF_MEMORY where !head.isComplete:
            return .headerTooLong  // libcurl's own cap on one header line (100 KiB)
        default:
            if !head.isComplete, text.lowercased().includes("header") { return .headerTooLong }
            return .transfer(text)
        }
    }
}
