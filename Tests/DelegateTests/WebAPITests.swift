import Foundation
import MotetTestSupport
import Testing

extension WebDelegateTests {
    /// The web delegate's API against the real player on the null (or WAV) output, with real
    /// clients (curl, Python sockets), and the json delegate's file as the user's witness.
    /// Serialized with the other web suites (WebDelegateTests).
    @Suite struct WebAPITests {
        @Test func everyRouteAnswersAndAnythingElseIsRefused() throws {
            let box = try PlayerSandbox()
            // A cover beside the tracks: the host caches it under its hash, and the API serves it so.
            try Data(TestImages.redPNG).write(to: URL(fileURLWithPath: box.path("cover.png")))
            let rig = try WebRig(box, ["--output", "null"] + box.tracks(["First", "Second"], seconds: 8))
            defer { rig.stop() }

            var pageBytes = 0
            for (path, type) in [("/", "text/html"), ("/app.js", "text/javascript"), ("/style.css", "text/css")] {
                let r = try Shell.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{content_type} %{size_download}", rig.base + path])
                let f = r.stdout.split(separator: " ")
                #expect(f.first == "200" && f.dropFirst().first?.hasPrefix(type) == true, "\(path): \(r.stdout)")
                pageBytes += Int(f.last ?? "") ?? 0
            }
            #expect(pageBytes > 3000 && pageBytes < 40 * 1024, "the page is \(pageBytes) bytes")

            _ = try Shell.waitUntil(timeout: 10) { WebRig.object(try rig.request("/api/now-playing").body)?["title"] as? String == "First" }
            let state = try rig.request("/api/now-playing")
            let object = try #require(WebRig.object(state.body), "\(state)")
            #expect(state.status == 200 && object["title"] as? String == "First" && object["state"] as? String == "playing")
            #expect(object["artist"] as? String == "Band" && object["nextTrackEnabled"] as? Bool == true)
            let copy = box.path("api-state.json")
            try Data(state.body.utf8).write(to: URL(fileURLWithPath: copy))
            #expect(try JSONDelegateFiles.schemaErrors(kind: "now-playing", file: copy).isEmpty, "the json delegate's schema")

            let artwork = try #require(object["artwork"] as? [String: Any], "\(object)")
            let id = try #require(artwork["id"] as? String)
            let picture = try Shell.run(["curl", "-s", "-D", box.path("headers"), "-o", box.path("picture"), "-w", "%{http_code}", rig.base + "/artwork/" + id])
            #expect(picture.stdout == "200" && (try? String(contentsOfFile: box.path("headers"), encoding: .utf8))?.contains("Content-Type: image/png") == true)
            #expect(FileManager.default.contents(atPath: box.path("picture")) == Data(TestImages.redPNG), "the cached picture, byte for byte")

            let events = try Shell.run(["curl", "-s", "-N", "-m", "1", rig.base + "/api/events"], timeout: 10)
            #expect(events.stdout.hasPrefix("event: now-playing\ndata: {"), "\(events.stdout.prefix(200))")
            #expect(events.stdout.contains("\"title\":\"First\""))

            for (method, path, allow) in [
                ("POST", "/", "GET, HEAD"), ("DELETE", "/api/now-playing", "GET, HEAD"), ("GET", "/api/command", "POST"),
                ("POST", "/api/events", "GET"), ("PUT", "/api/command", "POST"),
            ] {
                let r = try Shell.run(["curl", "-s", "-i", "-X", method, "-m", "5", rig.base + path])
                #expect(r.stdout.hasPrefix("HTTP/1.1 405"), "\(method) \(path): \(r.stdout.prefix(80))")
                #expect(r.stdout.contains("Allow: \(allow)\r\n"), "\(method) \(path)")
            }
            #expect(try rig.request("/nothing-here").status == 404)
            #expect(try rig.request("/artwork/../../../etc/passwd").status == 404)
            #expect(try rig.request("/artwork/" + String(repeating: "0", count: 64)).status == 404)
            #expect(try rig.request("/artwork/" + String(repeating: "A", count: 64)).status == 404)
            // A site that points its own name at this machine (DNS rebinding) is not answered.
            #expect(try rig.request("/api/now-playing", host: "evil.example:\(rig.port)").status == 403)
            #expect(try rig.request("/api/now-playing", host: "localhost:\(rig.port)").status == 200)
        }

        @Test func commandsAnswerWithTheHostsAnswerAndBadOnesWithOneClearError() throws {
            let box = try PlayerSandbox()
            let rig = try WebRig(box, ["--output", "null"] + box.tracks(["First", "Second"], seconds: 8))
            defer { rig.stop() }
            func liked() -> Bool? { JSONDelegateFiles.state(rig.stateFile)?["liked"] as? Bool }
            #expect(try rig.playing("First"))
            let track = try #require(JSONDelegateFiles.state(rig.stateFile)?["trackId"] as? Int)

            // A foreign page's command (another Origin) is refused and changes nothing.
            let foreign = try rig.request("/api/command", method: "POST", headers: ["Origin: http://evil.example"], body: #"{"command":"like"}"#)
            #expect(foreign.status == 403, "\(foreign)")
            let own = try rig.request(
                "/api/command", method: "POST", headers: ["Origin: http://127.0.0.1:\(rig.port)"], body: #"{"command":"like","track":\#(track)}"#)
            #expect(own.status == 202 && own.body.contains("accepted"), "\(own)")
            #expect(try Shell.waitUntil(timeout: 5) { liked() == true }, "the json delegate's file shows the like")

            let stale = try rig.request("/api/command", method: "POST", body: #"{"command":"dislike","track":999999}"#)
            #expect(stale.status == 409 && stale.body.contains("refused"), "\(stale)")
            let volume = try rig.request("/api/command", method: "POST", body: #"{"command":"volume","value":40}"#)
            #expect(volume.status == 202)
            #expect(try Shell.waitUntil(timeout: 5) { JSONDelegateFiles.state(rig.stateFile)?["volume"] as? Int == 40 })

            for (body, word) in [
                (#"{"command":"like""#, "not JSON"), (#"["like"]"#, "object"), (#"{"command":"jump"}"#, "unknown command"),
                (#"{"command":"volume","value":150}"#, "0 to 100"), (#"{"command":"like","track":-1}"#, "track id"),
                ("", "not JSON"), (String(repeating: "[", count: 5000), "larger"),
            ] {
                let r = try rig.request("/api/command", method: "POST", body: body)
                let error = WebRig.object(r.body)?["error"] as? String ?? ""
                let expected = word == "larger" ? 413 : 400
                #expect(r.status == expected && error.contains(word), "\(body.prefix(40)): \(r.status) \(r.body)")
            }
            // Without a length (chunked), the body is counted as it comes.
            let chunked = try rig.request(
                "/api/command", method: "POST", headers: ["Transfer-Encoding: chunked"], body: String(repeating: " ", count: 6000))
            #expect(chunked.status == 413, "\(chunked)")
            #expect(liked() == true && rig.process.isRunning, "nothing a client sent stopped the music")
            let answers = try Shell.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", rig.base + "/api/now-playing"])
            #expect(answers.stdout == "200")
        }

        @Test func offLoopbackEveryRequestNeedsTheTokenFromTheStateDirectory() throws {
            let box = try PlayerSandbox()
            // 127.0.0.2 stands for a LAN address: anything but 127.0.0.1 and ::1 needs the token.
            let rig = try WebRig(box, address: "127.0.0.2", ["--output", "null"] + box.tracks(["First"], seconds: 8))
            defer { rig.stop() }
            let file = box.path("state/motet/plugins/web/token")
            let token = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(token.count == 64, "\(token)")
            let mode = (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) ?? 0
            #expect(mode == 0o600, "token file mode \(String(mode, radix: 8))")
            #expect(rig.stderr.contains("web: serving http://127.0.0.2:\(rig.port)/?token=\(token)"), "\(rig.stderr)")

            #expect(try rig.request("/api/now-playing").status == 401)
            #expect(try rig.request("/").status == 401)
            #expect(try rig.request("/api/now-playing?token=" + String(repeating: "0", count: 64)).status == 403)
            #expect(try rig.request("/api/now-playing", headers: ["X-Motet-Token: nope"]).status == 403)
            #expect(try rig.request("/api/now-playing?token=\(token)").status == 200)
            #expect(try rig.request("/", headers: ["X-Motet-Token: \(token)"]).status == 200)
            #expect(try rig.request("/api/now-playing", headers: ["Authorization: Bearer \(token)"]).status == 200)
            #expect(try rig.request("/api/command", method: "POST", body: #"{"command":"pause"}"#).status == 401)
            #expect(try rig.request("/api/command?token=\(token)", method: "POST", body: #"{"command":"pause"}"#).status == 202)
            #expect(try Shell.waitUntil(timeout: 5) { JSONDelegateFiles.state(rig.stateFile)?["state"] as? String == "paused" })
        }

        @Test func fiftyEventStreamsAllGetAChangeWithin200Milliseconds() throws {
            let box = try PlayerSandbox()
            let rig = try WebRig(box, ["--output", "null"] + box.tracks(["First"], seconds: 30))
            defer { rig.stop() }
            #expect(try rig.playing("First"))
            let seen = try WebClients.run("fanout", [String(rig.port), "50"])
            #expect(seen["connected"] as? Int == 50, "\(seen)")
            #expect(seen["status"] as? Int == 202, "\(seen)")
            let latencies = seen["latencies"] as? [Double] ?? []
            #expect(latencies.count == 50, "\(latencies.count) of 50 clients saw the like: \(seen)")
            #expect((latencies.last ?? 1) < 0.2, "slowest \(latencies.last ?? -1) s (median \(latencies.isEmpty ? -1 : latencies[latencies.count / 2]) s)")
        }

        @Test func aClientPastTheRateLimitGets429AndTheOthersDoNot() throws {
            let box = try PlayerSandbox()
            let rig = try WebRig(box, ["--output", "null"] + box.tracks(["First"], seconds: 30))
            defer { rig.stop() }
            // 100 at once, then 50 a second: 300 as fast as one connection goes is far past it.
            let burst = try WebClients.run("burst", [String(rig.port), "300", "/api/now-playing"])
            let codes = burst["codes"] as? [String: Int] ?? [:]
            #expect((codes["200"] ?? 0) >= 100 && (codes["429"] ?? 0) > 0, "\(codes)")
            #expect(Set(codes.keys).isSubset(of: ["200", "429"]), "\(codes)")
            // Another address (127.0.0.3, another client) is not held back by it, nor is the music.
            let other = try Shell.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: 127.0.0.1:\(rig.port)",
                "http://127.0.0.1:\(rig.port)/api/now-playing", "--interface", "127.0.0.3"])
            #expect(other.stdout == "200", "\(other.stdout) \(other.stderr)")
            Thread.sleep(forTimeInterval: 1)
            #expect(try rig.request("/api/now-playing").status == 200, "the bucket refills")
            #expect(rig.process.isRunning && JSONDelegateFiles.state(rig.stateFile)?["state"] as? String == "playing")
        }

        @Test func onIPv6LoopbackNoTokenIsNeeded() throws {
            let box = try PlayerSandbox()
            let port = try WebRig.freePort("127.0.0.1")
            let process = try SpawnedProcess(
                box.motet(["--status", "quiet", "--output", "null", "--plugin", "web:listen=[::1]:\(port)"] + box.tracks(["First"], seconds: 8)),
                environment: box.environment, stderr: box.path("v6.err"))
            defer { process.stop() }
            let answered = try Shell.waitUntil(timeout: 10) {
                (try? Shell.run(["curl", "-s", "-g", "-o", "/dev/null", "-w", "%{http_code}", "http://[::1]:\(port)/api/now-playing"]))?.stdout == "200"
            }
            #expect(answered, "\((try? String(contentsOfFile: box.path("v6.err"), encoding: .utf8)) ?? "")")
            let listing = (try? String(contentsOfFile: box.path("v6.err"), encoding: .utf8)) ?? ""
            #expect(listing.contains("web: serving http://[::1]:\(port)/\n"), "\(listing)")
            #expect(!FileManager.default.fileExists(atPath: box.path("state/motet/plugins/web/token")), "no token on loopback")
        }

        @Test func aPortInUseIsOneClearErrorAndTheMusicPlays() throws {
            let box = try PlayerSandbox()
            let rig = try WebRig(box, ["--output", "null"] + box.tracks(["First"], seconds: 30))
            defer { rig.stop() }
            let second = try PlayerSandbox()
            let r = try second.run(
                ["--output", "null", "--untimed", "--status", "quiet", "--plugin", "web:listen=127.0.0.1:\(rig.port)"]
                    + second.tracks(["Other"], seconds: 1))
            #expect(r.stderr.contains("web: error: cannot listen on 127.0.0.1:\(rig.port): Address already in use"), "\(r.stderr)")
            #expect(r.status == 0, "the second motet played its track: \(r.status) \(r.stderr)")
            #expect(try rig.request("/api/now-playing").body.contains("\"title\":\"First\""), "the first one still answers alone")
        }

        @Test func halfSentRequestsHoldUpNobody() throws {
            let box = try PlayerSandbox()
            let rig = try WebRig(box, ["--output", "null"] + box.tracks(["First"], seconds: 30))
            defer { rig.stop() }
            #expect(try rig.playing("First"))
            // 60 connections that never finish their headers (they are closed after 30 s without
            // progress), and meanwhile another request is answered at once.
            let seen = try WebClients.run("partial", [String(rig.port), "60"])
            #expect(seen["status"] as? Int == 200 && seen["title"] as? String == "First", "\(seen)")
            #expect((seen["seconds"] as? Double ?? 9) < 0.5, "\(seen)")
            #expect(rig.process.isRunning && JSONDelegateFiles.state(rig.stateFile)?["state"] as? String == "playing")
        }
    }
}
