import Foundation
import MotetTestSupport
import Testing

extension WebDelegateTests {
    /// The web delegate's page in a real browser: headless Chromium driven by Selenium (Debian's
    /// chromium, chromium-driver and python3-selenium) against the real player on the null output,
    /// with the json delegate's file as the witness of what the player did.
    @Suite struct WebPageTests {
        @Test func thePageFollowsThePlayerAndItsButtonsWork() throws {
            let box = try PlayerSandbox()
            var tracks: [String] = []
            for (i, (title, seconds)) in [("First", 8.0), ("Second", 30.0), ("Third", 30.0)].enumerated() {
                let file = box.path("\(i).ogg")
                try Fixtures.oggVorbis(file, seconds: seconds, tags: .init(title: title, artists: ["Band"], album: "Record"), serial: i + 1)
                tracks.append(file)
            }
            // One skip a minute: after one skip, next is not enabled. The delegates run in plugin
            // processes of their own, so the reason crosses the wire too (not under a sanitizer,
            // where an instrumented delegate cannot load there: see IntegrationTests' `runsABundledDelegateIsolated`).
            let rig = try WebRig(
                box, isolated: ProcessInfo.processInfo.environment["MOTET_SANITIZER"] == nil,
                ["--output", "null", "--skip-limit", "1/60"] + tracks)
            defer { rig.stop() }
            let shots = Paths.buildDirectory + "/web-screenshots"
            try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)

            let seen = try WebBrowser.run(Self.script, base: rig.base, stateFile: rig.stateFile, arguments: [shots])
            func seconds(_ key: String) -> Double { seen[key] as? Double ?? 99 }
            #expect(seconds("firstShown") < 1, "the page showed the playing track after \(seen["firstShown"] ?? "never")")
            #expect(seconds("startFollowed") < 1, "the page showed the next track \(seen["startFollowed"] ?? "never") s after it started")
            #expect(seen["likePressed"] as? Bool == true && seen["likedInFile"] as? Bool == true, "\(seen)")
            #expect(seen["volumeInFile"] as? Bool == true, "the volume slider did not reach the player: \(seen)")
            #expect(seconds("skipFollowed") < 1, "after Next the page showed the next track after \(seen["skipFollowed"] ?? "never") s")
            #expect(seen["nextDisabled"] as? Bool == true, "\(seen)")
            // The player's own reason (plugin ABI 1.3), through the plugin's process and the JSON.
            #expect(seen["nextReason"] as? String == "Next is off: no skip left (--skip-limit).", "\(seen)")
            #expect(seen["nextReasonInFile"] as? String == "no skip left (--skip-limit)", "\(seen)")
            #expect(seen["pausedText"] as? String == "Paused" && seen["pausedInFile"] as? Bool == true, "\(seen)")
            #expect(seen["toggleLabel"] as? String == "Play", "\(seen)")
            let bar = seen["progressWhilePaused"] as? [Double] ?? []
            #expect(bar.count == 2 && bar[0] > 0 && bar[0] == bar[1], "the bar moved while paused: \(bar)")
            let moving = seen["progressWhilePlaying"] as? [Double] ?? []
            #expect(moving.count == 2 && moving[1] > moving[0], "the bar stood still while playing: \(moving)")
            let skewed = seen["skewedClock"] as? [Double] ?? []
            #expect(skewed.count == 3 && skewed[2] > 3000 && abs(skewed[0] - skewed[1]) < 1, "shown, expected, browser clock ahead by: \(skewed)")
            #expect(seen["unnamedControls"] as? [String] == [], "controls without a name: \(seen["unnamedControls"] ?? "?")")
            for name in ["phone-390x844.png", "desktop-1280x800.png", "phone-dark-390x844.png"] {
                let size = (try? FileManager.default.attributesOfItem(atPath: shots + "/" + name)[.size] as? Int) ?? 0
                #expect(size > 5000, "\(shots)/\(name): \(size) bytes")
            }
            #expect(rig.process.isRunning, "\(rig.stderr)")
        }

        /// The page's walk (WebBrowser.run's body): `args[0]` is the screenshots' directory.
        static let script = #"""
                viewport(390, 844, True)
                d.get(base + "/")
                # What the player plays (First, unless the browser took 8 s to start: hunt 19 saw a
                # loaded machine's browser start after a 4 s first track had ended).
                seen["firstShown"] = wait(lambda: el("title").text != "" and el("title").text == file_state().get("title"))
                # The next track's start, seen in the json delegate's file, and then on the page.
                wait(lambda: file_state().get("title") == "Second", 15)
                seen["startFollowed"] = wait(lambda: el("title").text == "Second")
                a = float(el("progress").get_attribute("value")); time.sleep(1); b = float(el("progress").get_attribute("value"))
                seen["progressWhilePlaying"] = [a, b]

                el("like").click()
                seen["likePressed"] = wait(lambda: el("like").get_attribute("aria-pressed") == "true") is not None
                seen["likedInFile"] = wait(lambda: file_state().get("liked") is True) is not None
                d.save_screenshot(args[0] + "/phone-390x844.png")

                # The volume slider from the keyboard: five steps down from 100.
                el("volume").send_keys(Keys.ARROW_LEFT * 5)
                seen["volumeInFile"] = wait(lambda: file_state().get("volume") == 95) is not None

                el("next").click()
                seen["skipFollowed"] = wait(lambda: el("title").text == "Third")
                seen["nextDisabled"] = wait(lambda: not el("next").is_enabled()) is not None
                seen["nextReason"] = el("next-reason").text
                seen["nextReasonInFile"] = file_state().get("nextTrackDisabledReason")

                # Pause, from the keyboard (Space on the focused button): the state says so and the
                # bar stops.
                time.sleep(0.5)
                el("toggle").send_keys(" ")
                wait(lambda: el("state").get_attribute("textContent") == "Paused")
                seen["pausedText"] = el("state").get_attribute("textContent")
                seen["toggleLabel"] = el("toggle").get_attribute("aria-label")
                seen["pausedInFile"] = wait(lambda: file_state().get("state") == "paused") is not None
                a = float(el("progress").get_attribute("value")); time.sleep(1); b = float(el("progress").get_attribute("value"))
                seen["progressWhilePaused"] = [a, b]

                # Every control has a name a screen reader says (its label, text or aria-label).
                seen["unnamedControls"] = d.execute_script(
                    "return [...document.querySelectorAll('button, input, progress')].filter(e => !("
                    "(e.getAttribute('aria-label') || '').trim() || e.textContent.trim() ||"
                    " (e.labels && e.labels.length && e.labels[0].textContent.trim()))).map(e => e.id)")

                viewport(1280, 800, False)
                time.sleep(0.3)
                d.save_screenshot(args[0] + "/desktop-1280x800.png")
                viewport(390, 844, True)
                d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
                time.sleep(0.3)
                d.save_screenshot(args[0] + "/phone-dark-390x844.png")

                # A browser whose clock is an hour ahead (another machine) still shows the
                # player's position: the page measures its clock against the event's updatedAt.
                el("toggle").click()
                wait(lambda: file_state().get("state") == "playing")
                d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                  {"source": "{ const real = Date.now; Date.now = () => real() + 3600000; }"})
                d.refresh()
                wait(lambda: el("title").text == "Third")
                time.sleep(1)
                s = file_state()
                expected = s["elapsed"] + (time.time() - s["elapsedAt"]) * s["rate"]
                seen["skewedClock"] = [float(el("progress").get_attribute("value")), expected,
                                       d.execute_script("return Date.now() / 1000") - time.time()]
            """#
    }
}
