import CPluginWire
import MotetEvents
import MotetPluginABI
import MotetSystem
import Testing

@testable import MotetPluginHost

/// The pure parts of isolation: supervision's decisions, the replay a restarted instance gets,
/// and the framing of events both ways.
@Suite struct SupervisionTests {
    /// The monotonic moment `seconds` after the clock's origin.
    func at(_ seconds: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: 0) + .seconds(seconds) }

    @Test func failuresBackOffFourfoldAndTheThirdInFiveMinutesDisables() {
        var supervision = PluginSupervision()
        #expect(supervision.failed(at: at(100)) == .restart(after: .milliseconds(500), failures: 1))
        #expect(supervision.failed(at: at(101)) == .restart(after: .seconds(2), failures: 2))
        #expect(supervision.failed(at: at(399)) == .disable)
    }

    @Test func failuresOlderThanTheWindowAreForgotten() {
        var supervision = PluginSupervision()
        #expect(supervision.failed(at: at(0)) == .restart(after: .milliseconds(500), failures: 1))
        #expect(supervision.failed(at: at(200)) == .restart(after: .seconds(2), failures: 2))
        // The first failure is 300 s old at 300: two in the window, not three.
        #expect(supervision.failed(at: at(300)) == .restart(after: .seconds(2), failures: 2))
        #expect(supervision.failed(at: at(1000)) == .restart(after: .milliseconds(500), failures: 1))
    }
}

@Suite struct DeliveredStateTests {
    private func started(_ id: UInt64, _ title: String) -> QueuedEvent {
        .player(.trackStarted(TrackStarted(
            track: TrackRecord(trackID: id, title: title, artists: ["Ada"], album: nil, durationMicros: 1_000_000, filePath: "/m/\(title).ogg"),
            reason: .next, startedAtUnixMicros: 1_700_000_000_000_000)))
    }

    @Test func aRestartedInstanceHearsTheCurrentTrackByRequestThenStateThenNowPlaying() {
        var state = DeliveredState()
        let np = SampleEvents.track("A", trackID: 7)
        let playing = SampleEvents.state(volume: 80)
        for event in [started(7, "A"), .player(playing), .player(np)] { state.note(event) }
        let replay = state.replay(abiMinor: 1)
        #expect(replay.count == 3)
        guard case .player(.trackStarted(let again)) = replay.first else { Issue.record("\(replay)"); return }
        #expect(again.track.trackID == 7 && again.reason == .request && again.startedAtUnixMicros == 1_700_000_000_000_000)
        #expect(replay.dropFirst().map(\.kind) == [.playbackState, .nowPlaying(7)])
        // An ABI 1.0 plugin never gets the track-started.
        #expect(state.replay(abiMinor: 0).map(\.kind) == [.playbackState, .nowPlaying(7)])
    }

    @Test func afterATrackFinishedOnlyTheStateIsToldAgain() {
        var state = DeliveredState()
        state.note(started(7, "A"))
        state.note(.player(SampleEvents.track("A", trackID: 7)))
        state.note(.player(SampleEvents.state(volume: 80)))
        state.note(.player(.trackFinished(TrackFinished(
            trackID: 7, filePath: "/m/A.ogg", title: "A", successfully: true, reason: .completed, track: nil,
            heardMicros: 1, positionMicros: 1, firstHeardUnixMicros: nil))))
        #expect(state.replay(abiMinor: 1).map(\.kind) == [.playbackState])
    }
}

@Suite struct EventWindowTests {
    /// Sixteen events go out without waiting; what the process took is settled in order, what it
    /// had not taken when it failed is taken back in order; the watchdog times the oldest one still
    /// on its way; a number never sent, or old news, counts nothing.
    @Test func eventsGoOutAheadAreSettledInOrderAndTheOldestIsTimed() {
        var window = EventWindow()
        #expect(window.watchdogDeadline == nil)
        for i in 1...EventWindow.capacity {
            #expect(!window.isFull)
            let number = window.send(.player(SampleEvents.track("T\(i)", trackID: UInt64(i))), at: MonotonicInstant(microseconds: Int64(i) * 1_000))
            #expect(number == UInt64(i))
        }
        #expect(window.isFull)
        #expect(window.watchdogDeadline == MonotonicInstant(microseconds: 1_000) + EventWindow.watchdog)
        #expect(window.took(upTo: 99) == 0, "a number never sent")
        #expect(window.took(upTo: 3) == 3)
        #expect(window.took(upTo: 2) == 0, "old news")
        #expect(window.hasTaken(3) && !window.hasTaken(4))
        #expect(window.settle().map(\.kind) == [.nowPlaying(1), .nowPlaying(2), .nowPlaying(3)])
        #expect(!window.isFull)
        #expect(window.watchdogDeadline == MonotonicInstant(microseconds: 4_000) + EventWindow.watchdog, "the oldest still on its way")
        #expect(window.tracks == Set(4...UInt64(EventWindow.capacity)))
        #expect(window.took(upTo: 5) == 2)
        let back = window.takeBack()
        #expect(back.map(\.kind) == (6...UInt64(EventWindow.capacity)).map { .nowPlaying($0) })
        #expect(window.watchdogDeadline == nil && window.tracks.isEmpty)
    }
}

@Suite struct WireFramingTests {
    /// The frame's payload for `event`, encoded as the player sends it.
    private func encoded(_ event: QueuedEvent) -> [UInt8] {
        var bytes: [UInt8] = []
        PluginEventMapping.withCEvent(event) { cEvent in
            var buffer = motet_wire_buffer()
            motet_wire_buffer_init(&buffer, MOTET_WIRE_EVENT)
            motet_wire_put_u64(&buffer, 9)
            motet_wire_encode_event(&buffer, cEvent)
            bytes = Array(UnsafeBufferPointer(start: buffer.bytes, count: buffer.length).dropFirst(8))
            motet_wire_buffer_free(&buffer)
        }
        return bytes
    }

    /// Decodes `payload` and hands the rebuilt C event to `body`; nil when malformed.
    private func decoded<T>(_ payload: [UInt8], _ body: (UnsafePointer<motet_wire_event>) -> T) -> T? {
        let out = UnsafeMutablePointer<motet_wire_event>.allocate(capacity: 1)
        defer { out.deallocate() }
        return payload.withUnsafeBufferPointer { bytes -> T? in
            var r = motet_wire_reader()
            motet_wire_reader_init(&r, bytes.baseAddress, bytes.count)
            #expect(motet_wire_get_u64(&r) == 9)
            guard motet_wire_decode_event(&r, out) == MOTET_WIRE_OK else { return nil }
            return body(UnsafePointer(out))
        }
    }

    @Test func aNowPlayingWithArtworkCrossesFieldByField() throws {
        let artwork = Artwork(bytes: [1, 2, 3, 0, 5], mime: "image/png", id: "c0ffee", path: "/cache/c0ffee.png")
        let payload = encoded(.player(SampleEvents.track("Song", trackID: 17, artwork: artwork)))
        let fields = try #require(decoded(payload) { e -> [String] in
            let np = e.pointee.event.now_playing
            let artists = (0..<Int(np.artist_count)).map { String(cString: np.artists[$0]!) }
            let bytes = Array(UnsafeBufferPointer(start: np.artwork_data, count: Int(np.artwork_size)))
            return [
                String(np.struct_size), String(cString: np.title), artists.joined(separator: "|"), String(cString: np.album),
                String(np.duration_us), String(np.elapsed_us), String(np.elapsed_at_us), String(np.rate), "\(bytes)",
                String(cString: np.artwork_id), String(cString: np.artwork_path), String(np.track_id),
                String(np.present), String(np.flags), np.url == nil ? "no url" : "url",
            ]
        })
        #expect(fields == [
            String(MOTET_NOW_PLAYING_SIZE_1_3), "Song", "Ada|Bo", "The Album", "180000000", "1500000", "42", "1.0",
            "[1, 2, 3, 0, 5]", "c0ffee", "/cache/c0ffee.png", "17", "15", "5", "no url",
        ])
    }

    /// ABI 1.3's reason for a disabled next crosses to the plugin's process; an enabled next has none.
    @Test func theReasonForADisabledNextCrosses() throws {
        let track = TrackInfo(title: "Last", artists: [], album: nil, durationMicros: 1_000_000, artwork: nil, filePath: "/m/Last.ogg")
        let disabled = NowPlaying(
            track: track, trackID: 4, elapsedMicros: 0, elapsedAtMicros: 1, rate: 1, liked: false, disliked: false,
            nextEnabled: false, previousEnabled: true, nextDisabledReason: .skipLimit)
        let reason = try #require(decoded(encoded(.player(.nowPlaying(disabled)))) { e in
            e.pointee.event.now_playing.next_disabled_reason.map { String(cString: $0) } ?? "NULL"
        })
        #expect(reason == "no skip left (--skip-limit)")
        let enabled = decoded(encoded(.player(SampleEvents.track("Song")))) { e in
            e.pointee.event.now_playing.next_disabled_reason == nil
        }
        #expect(enabled == true)
    }

    @Test func everyTruncationOfAnEventIsRefusedAndNothingIsReadPastIt() {
        let payload = encoded(.player(SampleEvents.track("Song", trackID: 17)))
        #expect(decoded(payload) { _ in true } == true)
        for length in 8..<payload.count {
            #expect(decoded(Array(payload.prefix(length))) { _ in true } == nil, "a payload cut at \(length) bytes was accepted")
        }
        // A string whose NUL is missing, or a byte too many, is refused too.
        var extra = payload
        extra.append(0)
        #expect(decoded(extra) { _ in true } == nil)
    }
}
