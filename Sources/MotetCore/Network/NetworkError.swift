import MotetEvents
import MotetSystem

/// Why a URL cannot be played (or fetched), typed; `line(url:)` renders every case in one place as
/// the one line users read: the URL, what is wrong, and what to do.
public enum NetworkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libcurl.so.4 could not be loaded (dlerror's text).
    case libraryMissing(String)
    /// The host name does not resolve.
    case hostNotFound(String)
    /// Nothing listens there, or the host cannot be reached.
    case connectionFailed(String)
    /// The server answered with an HTTP error status (4xx, 5xx): the code and its reason phrase.
    case httpStatus(Int, String)
    /// The TLS handshake or the server's certificate failed: libcurl's words.
    case tls(String)
    /// More redirects than `NetworkOptions.maximumRedirects`.
    case redirectLoop
    /// The response's header (a line or the whole block) is longer than `ResponseHead.maximumBytes`.
    case headerTooLong
    /// The server sends audio in another format: its name ("an MP3 stream") and the content type.
    case otherFormat(String, contentType: String)
    /// An HTML (or other text) page instead of audio.
    case webPage(contentType: String)
    /// The bytes are neither Ogg nor a known format.
    case notOgg
    /// A playlist (by its content type) where a stream was expected: its address has no
    /// playlist name, so the inputs did not read it as one. The player reads it as a playlist when
    /// it is played (`PlayedPlaylists`); the line is for callers that cannot.
    case playlist(PlaylistContentType, contentType: String)
    /// The headers before the first sound (a comment packet, pictures) exceed the limit.
    case headersTooLarge(limit: Int)
    /// A document fetched with `NetworkFetch.get` is longer than its limit.
    case documentTooLarge(limit: Int)
    /// Nothing (or too little) arrived for too long.
    case timedOut
    /// The connection broke (`cause`, the first loss) and reconnecting did not bring it back
    /// within the time allowed.
    indirect case gaveUp(after: Duration, cause: NetworkError)
    /// The server answered (its header was accepted) but no byte of audio ever came: nothing for
    /// the span given (the network timeout), or (nil) it closed the connection. Not retried: a server
    /// that answers without a source behind it says so again at once.
    case noAudio(after: Duration?)
    /// Anything else libcurl reports: its words.
    case transfer(String)
    /// The stream was interrupted (a park, skip or quit) before the server's answer was accepted:
    /// nobody's fault, and normally never shown.
    case interrupted

    /// The one line for users: `"<url>: <what is wrong> — <what to do>"`, the URL without any
    /// `user:password@`.
    public func line(url: String) -> String {
        "\(WebAddress.shown(url)): " + problem
    }

    /// What is wrong and what to do, without the URL (for a message that names it already; also
    /// the error's `description`, which a remote playlist's failure is shown by).
    public var description: String { problem }

    /// What is wrong and what to do, without the URL (for a message that names it already).
    public var problem: String {
        switch self {
        case .libraryMissing(let why):
            "cannot play URLs: libcurl is missing (\(why)) — install libcurl4 (apt install libcurl4)"
        case .hostNotFound(let host):
            "the host \(host.isEmpty ? "name" : host) was not found (DNS) — check the address and the network connection"
        case .connectionFailed(let why):
            "cannot connect (\(why)) — check the address and port, or try again later"
        case .httpStatus(let code, let reason):
            "the server answered \(code)\(reason.isEmpty ? "" : " " + reason) — "
                + (code >= 500 ? "the server has a problem; try again later" : "check the address")
        case .tls(let why):
            "the secure connection failed (\(why)) — check the address, the system's clock and CA certificates"
        case .redirectLoop:
            "too many redirects (a redirect loop) — check the address or tell the station"
        case .headerTooLong:
            "the server's HTTP header is too long (over \(ResponseHead.maximumBytes / 1024) KiB) — this is not an audio stream; check the address"
        case .otherFormat(let name, let type):
            "this is \(name) (\(type)); Motet plays Ogg Vorbis and Ogg Opus — pick the station's Ogg stream"
        case .webPage(let type):
            "this is a web page (\(type)), not an audio stream — give the stream's own address"
        case .notOgg:
            "not an Ogg stream (unknown data) — Motet plays Ogg Vorbis and Ogg Opus; check the address"
        case .playlist(let format, let type):
            "this is \(format.name) playlist (\(type)), not a stream — save it as a file ending in \(format.suffix) "
                + "(curl -o list\(format.suffix) URL) and play that, or play the stream address it lists"
        case .headersTooLarge(let limit):
            "the stream's headers (tags, pictures) exceed \(limit / (1024 * 1024)) MiB — the stream is damaged or hostile; skipping it"
        case .documentTooLarge(let limit):
            "the document is larger than \(limit / 1024) KiB — this is not a playlist; check the address"
        case .timedOut:
            "nothing arrived for too long (timed out) — check the network, or raise --network-timeout"
        case .noAudio(let span?):
            "the server answered but sent no audio in \(span.secondsText) s — the station may be off the air; try again later, or raise --network-timeout"
        case .noAudio(nil):
            "the server answered but closed the connection without sending any audio — the station may be off the air; try again later"
        case .gaveUp(let span, let cause):
            "the stream was lost (\(cause.lossReason)) and did not come back within \(span.secondsText) s — giving up; raise --reconnect-for to wait longer"
        case .transfer(let why):
            "the transfer failed (\(why)) — check the address and the network connection"
        case .interrupted:
            "the transfer failed (interrupted) — check the address and the network connection"
        }
    }
}

extension NetworkError {
    /// Whether a reconnection may cure it.
    var isRetryable: Bool {
        switch self {
        case .hostNotFound, .connectionFailed, .timedOut, .transfer, .interrupted: true
        case .httpStatus(let code, _): code >= 500 || code == 404
        default: false
        }
    }

    /// Why a stream was lost, for the line that says so.
    var lossReason: String {
        switch self {
        case .timedOut: "nothing arrived for too long"
        case .transfer(let why), .connectionFailed(let why): why
        case .interrupted: "interrupted"
        case .hostNotFound(let host): "\(host) not found"
        case .httpStatus(let code, let reason): "the server answered \(code) \(reason)"
        default: "error"
        }
    }
}
