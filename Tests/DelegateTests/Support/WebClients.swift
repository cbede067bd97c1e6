import Foundation
import MotetTestSupport

/// Clients of the web delegate's event stream, in Python (its sockets and `selectors` make many
/// clients in one process easy): each mode prints one JSON object with what it saw.
enum WebClients {
    /// Runs `mode` with `arguments`; the decoded object it printed.
    static func run(_ mode: String, _ arguments: [String], timeout: Double = 60) throws -> [String: Any] {
        let r = try Shell.run(["python3", "-c", script, mode] + arguments, timeout: timeout)
        guard r.status == 0, let data = r.stdout.data(using: .utf8),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { throw TestError.failed("web clients (\(mode)) exited \(r.status): \(r.stdout) \(r.stderr)") }
        return object
    }

    static let script = #"""
        import json, selectors, socket, sys, time, urllib.request

        def events_socket(port, rcvbuf=None):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            if rcvbuf: s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
            s.connect(("127.0.0.1", port))
            # HTTP/1.0: the stream comes unchunked, as it is, until the server closes it.
            s.sendall(f"GET /api/events HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            return s

        def states(buffer):
            """The JSON objects of the whole events in buffer, and what is left of it."""
            out = []
            while b"\n\n" in buffer:
                event, buffer = buffer.split(b"\n\n", 1)
                for line in event.split(b"\n"):
                    if line.startswith(b"data: "): out.append(json.loads(line[6:]))
            return out, buffer

        def post(port, body):
            r = urllib.request.Request(f"http://127.0.0.1:{port}/api/command", data=json.dumps(body).encode(), method="POST")
            try:
                return urllib.request.urlopen(r, timeout=5).status
            except urllib.error.HTTPError as e:
                return e.code

        mode, port = sys.argv[1], int(sys.argv[2])
        if mode == "fanout":
            n = int(sys.argv[3])
            clients = [events_socket(port) for _ in range(n)]
            sel = selectors.DefaultSelector()
            buffers = {}
            for c in clients:
                sel.register(c, selectors.EVENT_READ)
                buffers[c] = b""
            first = set()
            deadline = time.monotonic() + 10
            while len(first) < n and time.monotonic() < deadline:
                for key, _ in sel.select(0.5):
                    buffers[key.fileobj] += key.fileobj.recv(65536)
                    got, buffers[key.fileobj] = states(buffers[key.fileobj])
                    if got: first.add(key.fileobj)
            start = time.monotonic()
            status = post(port, {"command": "like"})
            seen = {}
            deadline = start + 5
            while len(seen) < n and time.monotonic() < deadline:
                for key, _ in sel.select(0.5):
                    buffers[key.fileobj] += key.fileobj.recv(65536)
                    got, buffers[key.fileobj] = states(buffers[key.fileobj])
                    if any(s.get("liked") for s in got) and key.fileobj not in seen:
                        seen[key.fileobj] = time.monotonic() - start
            print(json.dumps({"connected": len(first), "status": status, "latencies": sorted(seen.values())}))
        elif mode == "burst":
            import http.client
            n, path = int(sys.argv[3]), sys.argv[4]
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            codes = {}
            for _ in range(n):
                c.request("GET", path)
                r = c.getresponse(); r.read()
                codes[str(r.status)] = codes.get(str(r.status), 0) + 1
                if r.getheader("Connection", "").lower() == "close":
                    c.close(); c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            print(json.dumps({"codes": codes}))
        elif mode == "partial":
            import http.client
            n = int(sys.argv[3])
            held = []
            for _ in range(n):
                s = socket.create_connection(("127.0.0.1", port))
                s.sendall(f"GET /api/now-playing HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ".encode())
                held.append(s)
            start = time.monotonic()
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/api/now-playing")
            r = c.getresponse(); body = r.read()
            print(json.dumps({"status": r.status, "seconds": time.monotonic() - start, "title": json.loads(body).get("title")}))
        elif mode == "limits":
            # More connections than the limits: `per` from 127.0.0.1 and 127.0.0.2 each (one of
            # them a request whose headers never end), then one more from each of 127.0.0.1 and
            # 127.0.0.3; then a request on a held one, and on a new one once they are closed.
            per, total = int(sys.argv[3]), int(sys.argv[4])
            request = f"GET /api/now-playing HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
            def connect(source):
                s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                s.bind((source, 0))
                s.connect(("127.0.0.1", port))
                return s
            def answer(s, timeout):
                """What the server sent before it closed s: b"" for a close without an answer,
                None when it neither answered nor closed within timeout."""
                s.settimeout(timeout)
                data = b""
                try:
                    while True:
                        chunk = s.recv(65536)
                        if not chunk: return data
                        data += chunk
                except ConnectionResetError:
                    return data
                except socket.timeout:
                    return None
            def status(data):
                return int(data.split(b" ", 2)[1]) if data and data.startswith(b"HTTP/") else None
            out = {}
            half = connect("127.0.0.1")
            half.sendall(f"GET /api/now-playing HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
            started = time.monotonic()
            held = [connect("127.0.0.1") for _ in range(per - 1)]
            time.sleep(0.5)
            extra = connect("127.0.0.1")
            extra.sendall(request)
            out["pastPerAddress"] = answer(extra, 3) == b""
            held += [connect("127.0.0.2") for _ in range(total - per)]
            time.sleep(0.5)
            extra = connect("127.0.0.3")
            extra.sendall(request)
            got = answer(extra, 3)
            out["pastTotal"] = "no answer" if got is None else "closed" if got == b"" else "answered %s" % status(got)
            held[0].sendall(request)
            got = answer(held[0], 5)
            out["heldServed"] = status(got)
            out["heldTitle"] = json.loads(got.split(b"\r\n\r\n", 1)[1]).get("title") if status(got) == 200 else None
            for s in held: s.close()
            # The one past the total waits for a place, which it gets once others leave.
            got = answer(extra, 5)
            out["pastTotalLater"] = status(got)
            fresh = connect("127.0.0.1")
            fresh.sendall(request)
            out["freshServed"] = status(answer(fresh, 5))
            # The half-sent request is closed once it has made no progress for the timeout.
            got = answer(half, 60)
            out["halfClosedAfter"] = None if got is None else time.monotonic() - started
            out["halfAnswer"] = None if got is None else got.decode(errors="replace")[:40]
            print(json.dumps(out))
        elif mode == "stalled":
            stalled = events_socket(port, rcvbuf=4096)
            readers = [events_socket(port) for _ in range(2)]
            sel = selectors.DefaultSelector()
            titles = {r: [] for r in readers}
            buffers = {r: b"" for r in readers}
            for r in readers: sel.register(r, selectors.EVENT_READ)
            deadline = time.monotonic() + 60
            while sel.get_map() and time.monotonic() < deadline:
                for key, _ in sel.select(0.5):
                    data = key.fileobj.recv(65536)
                    if not data:
                        sel.unregister(key.fileobj)
                        continue
                    buffers[key.fileobj] += data
                    got, buffers[key.fileobj] = states(buffers[key.fileobj])
                    for s in got:
                        t = s.get("title")
                        if t and (not titles[key.fileobj] or titles[key.fileobj][-1] != t): titles[key.fileobj].append(t)
            print(json.dumps({"titles": [titles[r] for r in readers]}))
        """#
}
