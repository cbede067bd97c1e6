import Foundation
import MotetTestSupport
import Testing

/// The notify delegate against a real notification server (dunst under Xvfb on a private
/// dbus-daemon). Serialized: each test runs its own X server and dunst, and two cores are plenty
/// busy with one.
@Suite(.serialized) struct NotifyDelegateTests {
    /// Starts motet in the background with `arguments`, on `bus`.
    func startPlayer(_ box: PlayerSandbox, bus: DBusRig, _ arguments: [String]) throws -> SpawnedProcess {
        try SpawnedProcess(
            box.motet(["--status", "events"] + arguments), environment: box.environment.merging(bus.environment) { $1 },
            stdout: box.path("stdout.txt"), stderr: box.path("stderr.txt"))
    }

    @Test func oneBubbleShowsTitleAndEscapedBodyAndIsReplacedNotDuplicated() throws {
        let bus = try DBusRig()
        defer { bus.stop() }
        let dunst = try DunstRig(bus: bus)
        defer { dunst.stop() }
        let box = try PlayerSandbox()
        let files = try box.tracks(["First", "Rock & <Roll>"], seconds: 1.5, artists: ["Tom & Jerry"], album: "<Best> & Co")
        let cover = Fixtures.pictureBlock(mime: "image/png", width: 4, height: 4, data: TestImages.redPNG)
        try Fixtures.addComments(files[1], ["METADATA_BLOCK_PICTURE=" + Data(cover).base64EncodedString()])
        let motet = try startPlayer(box, bus: bus, ["--output", "null", "--plugin", "notify"] + files)
        defer { motet.stop() }
        var mostShown = 0
        var polls = 0
        while motet.isRunning, polls < 300 {
            mostShown = max(mostShown, (try? dunst.displayedCount()) ?? 0)
            polls += 1
            usleep(50_000)
        }
        #expect(motet.wait(timeout: 10))
        #expect(mostShown == 1, "one bubble at a time, replaced in place (most shown at once: \(mostShown))")
        #expect(try dunst.displayedCount() == 0, "the bubble is closed at shutdown")
        let history = try dunst.history()
        #expect(history.count == 1, "one bubble for the whole run, not one per track: \(history)")
        let bubble = try #require(history.first)
        #expect(bubble.summary == "Rock & <Roll>", "the last track's title: \(bubble)")
        // dunst parses body markup (it advertises body-markup), so the body must be escaped for
        // "&" and "<" to show as themselves.
        #expect(bubble.body == "Tom &amp; Jerry — &lt;Best&gt; &amp; Co", "\(bubble)")
        #expect(bubble.appName == "Motet")
        #expect(bubble.category == "x-gnome.music")
        // The cover went through `image-path` as a file:// URI of the player's cached copy.
        #expect(!bubble.iconPath.isEmpty, "\(bubble)")
        #expect(FileManager.default.contents(atPath: bubble.iconPath).map { [UInt8]($0) } == TestImages.redPNG, "\(bubble)")
        let stderr = (try? String(contentsOfFile: box.path("stderr.txt"), encoding: .utf8)) ?? ""
        #expect(!stderr.contains("notify"), "no complaint from notify: \(stderr)")
    }

    @Test func aStationsSongWithoutAnArtistNamesTheStationInTheBubble() throws {
        let bus = try DBusRig()
        defer { bus.stop() }
        let dunst = try DunstRig(bus: bus)
        defer { dunst.stop() }
        let box = try PlayerSandbox()
        let songs = box.path("station")
        try FileManager.default.createDirectory(atPath: songs, withIntermediateDirectories: true)
        try Fixtures.oggVorbis(songs + "/night.ogg", seconds: 20, tags: .init(title: "Night Air"))
        let server = try FaultyHTTPServer(directory: songs)
        defer { server.stop() }
        let motet = try startPlayer(box, bus: bus, ["--output", "null", "--plugin", "notify", server.url("live?files=night.ogg&name=Motet%20FM")])
        defer { motet.stop() }
        let stderr = { (try? String(contentsOfFile: box.path("stderr.txt"), encoding: .utf8)) ?? "" }
        #expect(try Shell.waitUntil(timeout: 30) { (try? dunst.displayedCount()) == 1 }, "\(stderr())")
        motet.stop()
        let bubble = try #require(try dunst.history().first, "\(stderr())")
        #expect(bubble.summary == "Night Air", "\(bubble)")
        #expect(bubble.body == "Motet FM", "the station stands in for the missing artist: \(bubble)")
    }

    @Test func buttonsPressedInDunstReachThePlayer() throws {
        let bus = try DBusRig()
        defer { bus.stop() }
        let dunst = try DunstRig(bus: bus)
        defer { dunst.stop() }
        let box = try PlayerSandbox()
        let files = try box.tracks(["Lovely", "Next one"], seconds: 10)
        let state = box.path("np.json")
        let motet = try startPlayer(
            box, bus: bus, ["--output", "null", "--plugin", "notify", "--plugin", "json:path=\(state)"] + files)
        defer { motet.stop() }
        #expect(try Shell.waitUntil(timeout: 15) { (try? dunst.displayedCount()) == 1 })
        #expect(try Shell.waitUntil(timeout: 10) { JSONDelegateFiles.state(state)?["title"] as? String == "Lovely" })

        let menu = try dunst.invokeAction("like")
        #expect(menu.contains { $0.contains("♡ Like") && $0.hasSuffix(",like]") }, "\(menu)")
        #expect(menu.contains { $0.contains("Skip") && $0.hasSuffix(",next]") }, "\(menu)")
        let liked = try Shell.waitUntil(timeout: 10) { JSONDelegateFiles.state(state)?["liked"] as? Bool == true }
        #expect(liked, "Like in the bubble makes the player like the track: \(String(describing: JSONDelegateFiles.state(state)))")

        let menuAfterLike = try dunst.invokeAction("next")
        #expect(menuAfterLike.contains { $0.contains("♥ Liked") }, "the bubble shows the like: \(menuAfterLike)")
        #expect(try Shell.waitUntil(timeout: 10) { JSONDelegateFiles.state(state)?["title"] as? String == "Next one" })
        // The menu for the last track (the scripted dmenu picks nothing): no Skip any more.
        var lastMenu: [String] = []
        _ = try Shell.waitUntil(timeout: 10) {
            lastMenu = (try? dunst.invokeAction("no-such-action")) ?? []
            return lastMenu.contains { $0.contains("(Next one)") }
        }
        #expect(lastMenu.contains { $0.contains("(Next one)") && $0.hasSuffix(",like]") }, "\(lastMenu)")
        #expect(!lastMenu.contains { $0.hasSuffix(",next]") }, "no Skip button on the last track: \(lastMenu)")
        motet.stop()
        #expect(try dunst.displayedCount() == 0)
        #expect(try dunst.history().count == 1, "still one bubble")
    }

    @Test func aServerThatStopsAnsweringCostsOneLineAndNeitherStallsNorHangsThePlayer() throws {
        let bus = try DBusRig()
        defer { bus.stop() }
        let dunst = try DunstRig(bus: bus)
        defer { dunst.stop() }
        let box = try PlayerSandbox()
        let files = try box.tracks(["One", "Two", "Three"], seconds: 2)
        let state = box.path("np.json")
        let started = Stopwatch()
        let motet = try startPlayer(
            box, bus: bus, ["--output", "null", "--plugin", "notify", "--plugin", "json:path=\(state)"] + files)
        defer { motet.stop() }
        #expect(try Shell.waitUntil(timeout: 10) { (try? dunst.displayedCount()) == 1 })
        let pid = try #require(dunst.serverPID)
        kill(pid, SIGSTOP)  // dunst keeps its name and socket but answers nothing
        defer { kill(pid, SIGCONT) }
        #expect(motet.wait(timeout: 20), "the player ends")
        let took = started.seconds
        #expect(took < 6 + 4, "6 s of music took \(took) s: notify's 2 s call timeout delays only itself")
        let stdout = (try? String(contentsOfFile: box.path("stdout.txt"), encoding: .utf8)) ?? ""
        #expect(stdout.contains("Finished: Three"), "\(stdout)")
        let stderr = (try? String(contentsOfFile: box.path("stderr.txt"), encoding: .utf8)) ?? ""
        let lines = stderr.split(separator: "\n").filter { $0.contains("notif") }
        #expect(lines.count == 1 && lines[0].contains("stopped answering"), "one line: \(stderr)")
        #expect(JSONDelegateFiles.state(state)?["state"] as? String == "stopped", "the other delegates were not held up")
    }

    @Test func aDismissedBubbleStaysAwayOnPauseAndComesBackForTheNextTrack() throws {
        let bus = try DBusRig()
        defer { bus.stop() }
        let dunst = try DunstRig(bus: bus)
        defer { dunst.stop() }
        let box = try PlayerSandbox()
        let files = try box.tracks(["Dismissed", "Welcome back"], seconds: 10)
        let term = try PlayerTerminal(
            command: box.motet(["--output", "null", "--plugin", "notify"] + files),
            environment: box.environment.merging(bus.environment) { $1 })
        defer { term.close() }
        #expect(try Shell.waitUntil(timeout: 15) { (try? dunst.displayedCount()) == 1 }, "\(term.screen())")
        try dunst.closeAll()  // the user dismisses it
        try term.press(" ")
        #expect(try Shell.waitUntil(timeout: 5) { term.screen().contains("paused") || term.screen().contains("⏸") })
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try dunst.displayedCount() == 0, "pausing does not bring the bubble back")
        try term.press(" ")
        try term.press("n")
        #expect(try Shell.waitUntil(timeout: 10) { (try? dunst.displayedCount()) == 1 }, "the next track shows again")
        #expect(try term.quit())
        let summaries = try dunst.history().map(\.summary)
        #expect(summaries == ["Welcome back", "Dismissed"], "\(summaries)")
    }

    /// The second server: xfce4-notifyd (it closes a bubble when a button is clicked unless the
    /// bubble is `resident`). The bubble asks to stay (`resident`) and to be left out of the
    /// server's log (`transient`), and a click on Like reaches the player and shows in the bubble.
    @Test func xfce4NotifydGetsResidentAndTransientAndItsLikeButtonReachesThePlayer() throws {
        let bus = try DBusRig()
        defer { bus.stop() }
        let xfce = try XfceNotifyRig(bus: bus)
        defer { xfce.stop() }
        let box = try PlayerSandbox()
        let files = try box.tracks(["Lovely", "Next one"], seconds: 10)
        let state = box.path("np.json")
        let motet = try startPlayer(
            box, bus: bus, ["--output", "null", "--plugin", "notify", "--plugin", "json:path=\(state)"] + files)
        defer { motet.stop() }
        #expect(try Shell.waitUntil(timeout: 15) { ((try? xfce.bubbles().count) ?? 0) == 1 }, "\(xfce.monitorText)")
        let first = try #require(xfce.notifyCalls.first)
        /// The value line after a hint's name, e.g. `variant boolean true`.
        func hint(_ call: String, _ name: String) -> String? {
            let lines = call.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let i = lines.firstIndex(of: "string \"\(name)\""), i + 1 < lines.count else { return nil }
            return lines[i + 1].split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        #expect(hint(first, "resident") == "variant boolean true", "\(first)")
        #expect(hint(first, "transient") == "variant boolean true", "\(first)")
        #expect(first.contains("string \"♡ Like\""), "\(first)")

        try xfce.clickFirstButton()
        #expect(
            try Shell.waitUntil(timeout: 10) { JSONDelegateFiles.state(state)?["liked"] as? Bool == true },
            "the click on Like did not reach the player: \(xfce.monitorText)")
        #expect(try Shell.waitUntil(timeout: 10) { xfce.notifyCalls.last?.contains("string \"♥ Liked\"") == true })
        #expect(try Shell.waitUntil(timeout: 10) { ((try? xfce.bubbles().count) ?? 0) == 1 }, "the bubble shows the like")
        motet.stop()
        #expect(try Shell.waitUntil(timeout: 5) { ((try? xfce.bubbles().count) ?? 0) == 0 }, "closed at shutdown")
    }

    @Test func withoutASessionBusNotifySaysSoOnceAndPlaybackGoesOn() throws {
        let box = try PlayerSandbox()
        let files = try box.tracks(["Quiet"], seconds: 1)
        let started = Stopwatch()
        let r = try box.run(["--output", "null", "--untimed", "--status", "events", "--plugin", "notify"] + files)
        #expect(r.status == 0)
        #expect(r.stdout.contains("Finished: Quiet"), "\(r.stdout)")
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("notif") }
        #expect(lines.count == 1, "one clear line: \(r.stderr)")
        #expect(lines.first?.contains("no session bus") == true, "\(r.stderr)")
        #expect(started.seconds < 10)
    }

    @Test func withABusButNoNotificationServerNotifySaysSoOnceAndPlaybackGoesOn() throws {
        let bus = try DBusRig()
        defer { bus.stop() }
        let box = try PlayerSandbox()
        let files = try box.tracks(["Quiet"], seconds: 1)
        let r = try box.run(
            ["--output", "null", "--untimed", "--status", "events", "--plugin", "notify"] + files,
            extraEnvironment: bus.environment)
        #expect(r.status == 0)
        #expect(r.stdout.contains("Finished: Quiet"), "\(r.stdout)")
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("notif") }
        #expect(lines.count == 1, "one clear line: \(r.stderr)")
        #expect(lines.first?.contains("no notification server") == true, "\(r.stderr)")
    }

    /// A desktop-less machine with a notification server installed: the bus tries to start it
    /// (D-Bus activation) and it exits (dunst without a display). That is "no notification
    /// server", said once, not a failed call.
    @Test func aServerTheBusCannotStartIsNoNotificationServerSaidOnce() throws {
        let box = try PlayerSandbox()
        let services = box.path("services")
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        try """
            [D-BUS Service]
            Name=org.freedesktop.Notifications
            Exec=/bin/sh -c 'echo cannot open display >&2; exit 1'

            """.write(toFile: services + "/org.example.notifyd.service", atomically: true, encoding: .utf8)
        let bus = try DBusRig(serviceDirectory: services)
        defer { bus.stop() }
        let files = try box.tracks(["Quiet"], seconds: 1)
        let r = try box.run(
            ["--output", "null", "--untimed", "--status", "events", "--plugin", "notify"] + files,
            extraEnvironment: bus.environment)
        #expect(r.status == 0)
        #expect(r.stdout.contains("Finished: Quiet"), "\(r.stdout)")
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("notif") }
        #expect(lines.count == 1, "one clear line: \(r.stderr)")
        #expect(lines.first?.contains("desktop notifications are off: no notification server") == true, "\(r.stderr)")
    }

    /// A server that is there but answers with an error is named by its D-Bus error name and
    /// message, never taken for a missing server because of words in the message.
    @Test func aServerThatAnswersWithAnErrorIsReportedByItsErrorName() throws {
        let bus = try DBusRig()
        defer { bus.stop() }
        let box = try PlayerSandbox()
        let server = try FailingNotificationServer(
            bus: bus, directory: box.path("server"), errorName: "org.example.Error.Broken",
            message: "the backend.ServiceUnknown is down")
        defer { server.stop() }
        let files = try box.tracks(["Quiet"], seconds: 1)
        let r = try box.run(
            ["--output", "null", "--untimed", "--status", "events", "--plugin", "notify"] + files,
            extraEnvironment: bus.environment)
        #expect(r.status == 0)
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("notif") }
        #expect(lines.count == 1, "one clear line: \(r.stderr)")
        #expect(
            lines.first?.contains(
                "desktop notifications are off: GetCapabilities failed: org.example.Error.Broken: the backend.ServiceUnknown is down"
            ) == true, "\(r.stderr)")
    }
}
