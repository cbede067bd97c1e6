import Foundation
import MotetTestSupport
import Testing

extension WebDelegateTests {
    /// The page's state line when playback cannot go on by itself, in a real browser against the
    /// real player: a stream whose server stops sending (stalled, with why), the sound server
    /// pausing Motet for a call (interrupted), and the sound server dying (stalled, with why).
    @Suite struct WebPageStateTests {
        @Test func aStreamWhoseServerStopsSendingShowsStalledWithItsReason() throws {
            let box = try PlayerSandbox()
            let www = box.path("www")
            try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
            try Fixtures.oggVorbis(www + "/song.ogg", seconds: 20, synth: ["pinknoise"], tags: .init(title: "On Air", artists: ["Band"]))
            let size = try FileManager.default.attributesOfItem(atPath: www + "/song.ogg")[.size] as? Int ?? 0
            let server = try FaultyHTTPServer(directory: www)
            defer { server.stop() }
            // About four seconds of sound (half a second buffered before it plays), then nothing
            // on an open connection; the player waits for it (stalled) far longer than the test looks.
            let rig = try WebRig(
                box, ["--output", "null", "--prebuffer", "0.5", "--network-timeout", "60", server.url("song.ogg?stall=\(size / 5)")])
            defer { rig.stop() }
            let shots = Paths.buildDirectory + "/web-screenshots"
            try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
            let seen = try WebBrowser.run(
                """
                    d.get(base + "/")
                    seen["playing"] = wait(lambda: el("title").text == "On Air" and state_text() == "Playing", 10)
                    seen["stalled"] = wait(lambda: state_text().startswith("Stalled"), 20)
                    seen["text"] = state_text()
                    seen["toggle"] = el("toggle").get_attribute("aria-label")
                    seen["inFile"] = file_values(["state", "stalledReason"], ["stalled", "buffering"])
                    d.save_screenshot(args[0])
                """, base: rig.base, stateFile: rig.stateFile, arguments: [shots + "/phone-stalled-390x844.png"])
            #expect(seen["playing"] is Double, "the page never showed the stream playing: \(seen)")
            #expect(seen["stalled"] is Double, "the page never showed the stall: \(seen)")
            #expect(seen["text"] as? String == "Stalled: waiting for the stream", "\(seen)")
            // Sound is still wanted: the player's toggle would pause, and the button says so.
            #expect(seen["toggle"] as? String == "Pause", "\(seen)")
            #expect(seen["inFile"] as? [String] == ["stalled", "buffering"], "\(seen)")
            #expect(rig.process.isRunning, "\(rig.stderr)")
        }

        @Test func aCallShowsInterruptedThenPlayingAndALostSoundServerShowsStalledWithItsReason() throws {
            let pulse = try PulseRig(roleCork: true)
            defer { pulse.stop() }
            let box = try PlayerSandbox()
            let files = try box.tracks(["Music"], seconds: 30)
            let call = box.path("call.wav")
            try Fixtures.wav(call, seconds: 2, rate: pulse.rate, channels: pulse.channels, synth: ["sine", "440"])
            let rig = try WebRig(box, environment: pulse.environment, ["--output", "pulse"] + files)
            defer { rig.stop() }
            // The call: a phone-role stream, which module-role-cork answers by corking music.
            let phone = ["paplay", "-d", PulseRig.sinkName, "--property=media.role=phone", call]
            let seen = try WebBrowser.run(
                """
                    d.get(base + "/")
                    seen["playing"] = wait(lambda: el("title").text == "Music" and state_text() == "Playing", 10)
                    time.sleep(0.5)
                    call = subprocess.Popen(json.loads(args[0]), env={"PULSE_SERVER": args[1]})
                    seen["interrupted"] = wait(lambda: state_text().startswith("Interrupted"), 5)
                    seen["text"] = state_text()
                    seen["inFile"] = file_values(["state", "interruption"], ["interrupted", "corked"])
                    seen["toggle"] = el("toggle").get_attribute("aria-label")
                    call.wait(20)
                    seen["playingAgain"] = wait(lambda: state_text() == "Playing", 10)
                    # The sound server dies (SIGKILL, a crash as a client sees it).
                    os.kill(int(args[2]), signal.SIGKILL)
                    seen["lost"] = wait(lambda: state_text().startswith("Stalled"), 10)
                    seen["lostText"] = state_text()
                    seen["lostInFile"] = file_values(["state", "stalledReason"], ["stalled", "device-lost"])
                """, base: rig.base, stateFile: rig.stateFile,
                arguments: [
                    String(decoding: try JSONSerialization.data(withJSONObject: phone), as: UTF8.self), pulse.serverAddress,
                    String(try #require(pulse.serverPID)),
                ])
            #expect(seen["playing"] is Double, "the page never showed the track playing: \(seen) \(rig.stderr)")
            #expect(seen["interrupted"] is Double, "the page never showed the interruption: \(seen)")
            #expect(seen["text"] as? String == "Interrupted by the sound server", "\(seen)")
            #expect(seen["inFile"] as? [String] == ["interrupted", "corked"], "\(seen)")
            // Interrupted is not playing: the button offers Play.
            #expect(seen["toggle"] as? String == "Play", "\(seen)")
            #expect(seen["playingAgain"] is Double, "the page did not show playing after the call: \(seen)")
            #expect(seen["lost"] is Double, "the page never showed the lost server: \(seen)")
            #expect(seen["lostText"] as? String == "Stalled: the sound device went away", "\(seen)")
            #expect(seen["lostInFile"] as? [String] == ["stalled", "device-lost"], "\(seen)")
            #expect(rig.process.isRunning, "\(rig.stderr)")
        }
    }
}
