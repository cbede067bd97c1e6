import Foundation
import Glibc
import MotetTestSupport
import Testing

/// The long ALSA buffer (#16) as a person at the keyboard meets it, on the real-time fault device
/// of `ALSAFaultRig` (no faults injected): the player asks for a buffer of seconds, yet space
/// silences the device within 100 ms and a seek brings the new audio to it within 150 ms.
///
/// The time of a key press is taken (CLOCK_MONOTONIC) before `tmux send-keys` runs, so tmux and
/// the terminal count against us; the device logs its events with the same clock. A pause fades
/// out (README, "Crossfade and fades"): it is done when the device, its buffer rewound to just
/// ahead of what plays (`ALSAOutput.cut`), has played the fade and run dry (`underrun`, less its
/// `late_us`: the device says so only when next asked), or pauses or stops (`pause`, `stop`: a
/// device that cannot rewind). A seek is done when the new audio plays: after a `rewind`, once
/// what it left queued and the 5 ms fade out have played; after a drop, when the device starts
/// again (`start`). Each test presses three times and asserts the median; all are printed.
@Suite(.serialized, .measuresTime) struct ALSALatencyTests {
    static let rate = 44100
    static let pauseBound: Int64 = 100_000
    static let seekBound: Int64 = 150_000

    private func monotonicMicros() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }

    /// motet in a terminal playing a 20 s tone on the fault device, once the device has started.
    private func play(_ rig: ALSAFaultRig) throws -> PlayerTerminal {
        let run = try MotetRun()
        let ogg = run.path("tone.ogg")
        try Fixtures.oggVorbis(ogg, seconds: 20, synth: ["sine", "440"], tags: .init(title: "Tone"))
        let term = try PlayerTerminal(
            command: [Paths.motet, "--output", "alsa", "--no-config", ogg],
            environment: run.environment.merging(rig.environment) { $1 })
        let started = try Shell.waitUntil(timeout: 15) { rig.events().contains { $0.name == "start" } }
        guard started else { throw TestError.failed("the device never started: \(term.screen())") }
        return term
    }

    /// The first event named one of `names` after `micros`, as microseconds from `micros` to when
    /// it was heard (`heard`).
    private func delay(after micros: Int64, to names: Set<String>, in events: [ALSAFaultRig.Event]) -> Int64? {
        events.first { names.contains($0.name) && $0.micros >= micros }.map { heard($0) - micros }
    }

    /// When what `event` tells of reaches the listener: a `rewind`'s new audio once what is left
    /// queued and the 5 ms fade out have played, an `underrun` when it happened.
    private func heard(_ event: ALSAFaultRig.Event) -> Int64 {
        switch event.name {
        case "rewind": event.micros + Int64(event.int("queued") ?? 0) * 1_000_000 / Int64(Self.rate) + 5_000
        case "underrun": event.micros - Int64(event.int("late_us") ?? 0)
        default: event.micros
        }
    }

    private func median(_ values: [Int64]) -> Int64 { values.sorted()[values.count / 2] }

    /// The buffer the player set up is seconds long: what lets the machine sleep between refills.
    private func expectLongBuffer(_ events: [ALSAFaultRig.Event]) {
        let buffer = events.first { $0.name == "params" }?.int("buffer") ?? 0
        #expect(buffer >= Self.rate * 3 / 2, "the ALSA buffer is \(buffer) frames: \(events)")
    }

    @Test func spaceStopsALongBufferWithin100Milliseconds() throws {
        let rig = try ALSAFaultRig(.init())
        defer { rig.stop() }
        let term = try play(rig)
        defer { term.close() }
        Thread.sleep(forTimeInterval: 1.0)
        var pressedAt: [Int64] = []
        for _ in 0..<3 {
            pressedAt.append(monotonicMicros())
            try term.press(" ")
            Thread.sleep(forTimeInterval: 0.7)
            try term.press(" ")
            Thread.sleep(forTimeInterval: 1.0)
        }
        try term.press("q")
        let events = rig.events()
        expectLongBuffer(events)
        let latencies = pressedAt.compactMap { delay(after: $0, to: ["pause", "stop", "underrun"], in: events) }
        print("ALSA pause to a silent device: \(latencies.map { "\($0 / 1000) ms" })")
        #expect(latencies.count == 3, "\(events)")
        if !latencies.isEmpty { #expect(median(latencies) <= Self.pauseBound, "pause: \(latencies) µs") }
    }

    @Test func aSeekRestartsALongBufferWithin150Milliseconds() throws {
        let rig = try ALSAFaultRig(.init())
        defer { rig.stop() }
        let term = try play(rig)
        defer { term.close() }
        Thread.sleep(forTimeInterval: 1.0)
        var pressedAt: [Int64] = []
        for trial in 0..<3 {
            if trial > 0 {
                try term.pressKey("Left")
                Thread.sleep(forTimeInterval: 0.8)
            }
            pressedAt.append(monotonicMicros())
            try term.pressKey("Right")
            Thread.sleep(forTimeInterval: 0.8)
        }
        try term.press("q")
        let events = rig.events()
        expectLongBuffer(events)
        // The seek rewinds what the device held, and the new audio follows the fade out.
        let latencies = pressedAt.compactMap { delay(after: $0, to: ["rewind", "start"], in: events) }
        print("ALSA seek to the device playing the new audio: \(latencies.map { "\($0 / 1000) ms" })")
        #expect(latencies.count == 3, "\(events)")
        for at in pressedAt {
            #expect(delay(after: at, to: ["rewind"], in: events) != nil, "no rewind after a seek: \(events)")
        }
        if !latencies.isEmpty { #expect(median(latencies) <= Self.seekBound, "seek: \(latencies) µs") }
    }
}
