import Foundation
import Glibc

/// A small HTTP server on 127.0.0.1 that serves the files of one directory and injects faults,
/// for the network tests (python3, started as a process: `SpawnedProcess`). Every fault is chosen by
/// the URL, so tests compose them freely:
///
/// - `/NAME` serves the file NAME with `Content-Length` and `Accept-Ranges: bytes`, honouring
///   `Range: bytes=N-` with a 206.
///   Query options: `drop=N` closes the connection after N body bytes of a request that starts at
///   byte 0 (a Range resume is then served whole); `stall=N` sends the file up to byte N and then
///   nothing, keeping the connection open; `trickle=N` sends it up to byte N fast, then 1 byte a
///   second (both also on a resume just past N, not on libvorbisfile's look at the file's end);
///   `pause=N&for=S` sends the file up to byte N, waits S seconds, then sends the rest;
///   `rate=B` sends it at B bytes a second (a quarter of that every 0.25 s);
///   `type=TYPE` sets the content type (default audio/ogg); `noranges=1` leaves out Accept-Ranges;
///   `nolength=1` leaves out Content-Length.
/// - `/live?files=A,B,…` is a live station: `icy-*` headers, no length, no ranges; it sends the
///   files one after another (a chained stream), round after round, each connection starting at
///   the next file. `dropafter=N` closes each connection after N bytes; `name=`, `genre=`,
///   `description=`, `homepage=` set the icy headers; `rounds=K` ends the response after K rounds.
/// - `/status/CODE` answers CODE with its reason phrase; `/loop` redirects to itself forever;
///   `/redirect?to=PATH` redirects once;
///   `/longheader` sends an endless header line; `/garbage` sends random bytes; `/html` sends a
///   web page (text/html).
///
/// Every request is logged (`requests()`): the path, the `Range` and the `User-Agent`.
///
/// With `basicAuth` ("user:password"), every request without those credentials (HTTP Basic) is
/// answered 401.
public final class FaultyHTTPServer: @unchecked Sendable {
    public let port: Int
    public let directory: String
    private let process: SpawnedProcess
    private let logPath: String

    /// https instead of http, with a self-signed certificate no client trusts.
    public let tls: Bool

    /// Starts serving `directory` on a free port of 127.0.0.1 (waits until it listens); with
    /// `tls`, over TLS with a fresh self-signed certificate (made with openssl).
    /// With `basicAuth` ("user:password"), only requests with those credentials are served.
    public init(directory: String, tls: Bool = false, basicAuth: String? = nil) throws {
        self.directory = directory
        self.tls = tls
        let scratch = try Paths.temporaryDirectory("motet-http")
        let script = scratch + "/server.py"
        try Self.script.write(toFile: script, atomically: true, encoding: .utf8)
        logPath = scratch + "/requests.log"
        let portFile = scratch + "/port"
        process = try SpawnedProcess(
            ["python3", script, directory, portFile, logPath] + (tls ? ["tls"] : [])
                + (basicAuth.map { ["auth=" + Data($0.utf8).base64EncodedString()] } ?? []), stdout: scratch + "/out.log", stderr: scratch + "/err.log")
        let log = { (try? String(contentsOfFile: scratch + "/err.log", encoding: .utf8)) ?? "" }
        var found = 0
        do {
            // The port file is renamed into place whole, once the server listens.
            try Readiness.wait(for: "the test HTTP server", answering: "its port", timeout: 10, process: process, detail: log) {
                found = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0) } ?? 0
                return found > 0
            }
            // A request that gets its reply (not logged: `requests()` holds the tests' own).
            let ready = (tls ? "https" : "http") + "://127.0.0.1:\(found)/_ready"
            try Readiness.wait(
                for: "the test HTTP server", answering: "GET \(ready)", timeout: 10, process: process, detail: log
            ) {
                let r = try? Shell.run(["curl", "-sk", "-o", "/dev/null", "-m", "5", "-w", "%{http_code}", ready], timeout: 10)
                return r?.stdout == "204"
            }
        } catch {
            process.stop()
            throw error
        }
        port = found
    }

    deinit { stop() }

    public func stop() { process.stop() }

    /// `http://127.0.0.1:PORT/` + `path` (which may carry a query).
    public func url(_ path: String) -> String { (tls ? "https" : "http") + "://127.0.0.1:\(port)/" + path }

    /// One logged request.
    public struct Request: Sendable, Equatable {
        public var path: String
        public var range: String
        public var userAgent: String
    }

    /// The requests served so far, in order.
    public func requests() -> [Request] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Request(path: f.first ?? "", range: f.count > 1 ? f[1] : "", userAgent: f.count > 2 ? f[2] : "")
        }
    }

    static let script = #"""
import http.server, os, socketserver, sys, time, urllib.parse, random, threading

ROOT, PORT_FILE, LOG = sys.argv[1], sys.argv[2], sys.argv[3]
AUTH = next((a[5:] for a in sys.argv[4:] if a.startswith("auth=")), None)
log_lock = threading.Lock()
live_counter = [0]

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    def log_message(self, *args): pass

    def send(self, data):
        try:
            self.wfile.write(data); self.wfile.flush(); return True
        except (BrokenPipeError, ConnectionResetError):
            return False

    def do_GET(self):
        if self.path == "/_ready":
            self.send_response(204); self.end_headers(); return
        url = urllib.parse.urlparse(self.path)
        q = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
        with log_lock:
            with open(LOG, "a") as f:
                f.write("%s\t%s\t%s\n" % (self.path, self.headers.get("Range", ""), self.headers.get("User-Agent", "")))
        path = url.path
        if AUTH and self.headers.get("Authorization", "") != "Basic " + AUTH:
            self.send_response(401); self.send_header("WWW-Authenticate", 'Basic realm="motet"')
            self.send_header("Content-Length", "0"); self.end_headers(); return
        if path.startswith("/status/"):
            code = int(path.split("/")[2])
            self.send_response(code); self.send_header("Content-Type", "text/plain"); self.end_headers()
            self.send(b"error\n"); return
        if path == "/loop":
            n = int(q.get("n", "0")) + 1
            self.send_response(302); self.send_header("Location", "/loop?n=%d" % n); self.end_headers(); return
        if path == "/redirect":
            self.send_response(302); self.send_header("Location", q.get("to", "/")); self.end_headers(); return
        if path == "/longheader":
            self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Endless: ")
            for _ in range(1024):
                if not self.send(b"a" * 1024): return
            return
        if path == "/garbage":
            rnd = random.Random(7)
            body = bytes(rnd.randrange(256) for _ in range(65536))
            self.send_response(200); self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(body))); self.end_headers(); self.send(body); return
        if path == "/html":
            body = b"<!DOCTYPE html><html><head><title>Radio</title></head><body>Listen!</body></html>\n"
            self.send_response(200); self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body))); self.end_headers(); self.send(body); return
        if path == "/live":
            return self.live(q)
        return self.file(path, q)

    def file(self, path, q):
        name = os.path.join(ROOT, urllib.parse.unquote(path.lstrip("/")))
        try:
            data = open(name, "rb").read()
        except OSError:
            self.send_response(404); self.end_headers(); return
        start = 0
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes=") and "noranges" not in q:
            start = int(rng[6:].split("-")[0])
        if start >= len(data) and start > 0:
            self.send_response(416); self.send_header("Content-Range", "bytes */%d" % len(data)); self.end_headers(); return
        if start > 0:
            self.send_response(206)
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(data) - 1, len(data)))
        else:
            self.send_response(200)
        self.send_header("Content-Type", q.get("type", "audio/ogg"))
        if "nolength" not in q: self.send_header("Content-Length", str(len(data) - start))
        if "noranges" not in q: self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        body = data[start:]
        if "drop" in q and start == 0:
            n = int(q["drop"]); self.send(body[:n])
            self.connection.shutdown(2); return
        if "pause" in q and start < int(q["pause"]):
            n = int(q["pause"]) - start
            if not self.send(body[:n]): return
            time.sleep(float(q.get("for", "5")))
            self.send(body[n:]); return
        if "rate" in q:
            step = max(1, int(q["rate"]) // 4)
            for i in range(0, len(body), step):
                if not self.send(body[i:i + step]): return
                time.sleep(0.25)
            return
        # stall=N and trickle=N act at byte N of the file, on requests that start before it or just
        # after it (a resume); libvorbisfile's look at the end of the file is served whole.
        fault = "stall" if "stall" in q else "trickle" if "trickle" in q else None
        if fault and start <= int(q[fault]) + 16384:
            fast = max(0, int(q[fault]) - start)
            if not self.send(body[:fast]): return
            body = body[fast:]
            if fault == "stall":
                while self.send(b""): time.sleep(0.5)
                return
            for i in range(len(body)):
                if not self.send(body[i:i + 1]): return
                time.sleep(1)
            return
        self.send(body)

    def live(self, q):
        files = [open(os.path.join(ROOT, f), "rb").read() for f in q.get("files", "").split(",") if f]
        self.send_response(200)
        self.send_header("Content-Type", "audio/ogg")
        self.send_header("icy-name", q.get("name", "Motet Test Radio"))
        if "genre" in q: self.send_header("icy-genre", q["genre"])
        if "description" in q: self.send_header("icy-description", q["description"])
        if "homepage" in q: self.send_header("icy-url", q["homepage"])
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        with log_lock:
            first = live_counter[0]; live_counter[0] += 1
        limit = int(q["dropafter"]) if "dropafter" in q else None
        rounds = int(q.get("rounds", "1000000"))
        sent = 0
        for r in range(rounds):
            for i in range(len(files)):
                data = files[(first + i) % len(files)] if r == 0 else files[i % len(files)]
                if limit is not None and sent + len(data) > limit:
                    self.send(data[:limit - sent]); self.connection.shutdown(2); return
                if not self.send(data): return
                sent += len(data)

class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

server = Server(("127.0.0.1", 0), Handler)
if "tls" in sys.argv[4:]:
    import ssl, subprocess
    base = os.path.dirname(PORT_FILE)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-keyout", base + "/key.pem", "-out", base + "/cert.pem"], check=True, capture_output=True)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(base + "/cert.pem", base + "/key.pem")
    server.socket = context.wrap_socket(server.socket, server_side=True)
with open(PORT_FILE + ".tmp", "w") as f: f.write(str(server.server_address[1]))
os.rename(PORT_FILE + ".tmp", PORT_FILE)
server.serve_forever()
"""#
}
