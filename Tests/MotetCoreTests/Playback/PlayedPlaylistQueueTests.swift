import MotetConfiguration
import MotetEvents
import Testing

@testable import MotetPlayback
import MotetSystem

/// A queue entry that turns out to be a playlist when it is played is replaced by the playlist's
/// entries (`PlayQueue.replace`) on the control thread, its only owner, while the decoder waits at
/// it (`DecodeCursor.awaitEntries`, `entriesPlaced`); every position the control thread holds
/// moves with it (`PlayerStateMachine.placeEntries`).
@Suite struct PlayedPlaylistQueueTests {
    private let listen = "http://radio.example/listen"
    private func entries(_ names: String...) -> [InputExpander.PlayedTrack] {
        names.map { .init(path: "http://radio.example/" + $0, origin: [listen]) }
    }

    @Test func theEntriesTakeThePlaylistsPlace() {
        var queue = PlayQueue(files: ["/a.ogg", listen, "/c.ogg"], shuffle: false, loop: false)
        queue.replace(at: 1, with: entries("x.ogg", "y.ogg", "z.ogg"))
        #expect((0..<queue.count).map(queue.path(at:)) == [
            "/a.ogg", "http://radio.example/x.ogg", "http://radio.example/y.ogg", "http://radio.example/z.ogg", "/c.ogg",
        ])
        #expect(queue.origin(at: 2) == [listen] && queue.origin(at: 0).isEmpty && queue.origin(at: 4).isEmpty)
    }

    @Test func aPlaylistWithNothingToPlayLeavesTheQueue() {
        var queue = PlayQueue(files: ["/a.ogg", listen, "/c.ogg"], shuffle: false, loop: false)
        queue.replace(at: 1, with: [])
        #expect((0..<queue.count).map(queue.path(at:)) == ["/a.ogg", "/c.ogg"])
    }

    @Test func replacementsAfterAShuffleKeepThePlaylistsEntriesTogetherWhereItWas() {
        var queue = PlayQueue(files: (1...20).map { "/\($0).ogg" } + [listen], shuffle: true, loop: false)
        let at = (0..<queue.count).first { queue.path(at: $0) == listen }!
        let after = at + 1 < queue.count ? queue.path(at: at + 1) : nil
        queue.replace(at: at, with: entries("x.ogg", "y.ogg"))
        #expect(queue.path(at: at) == "http://radio.example/x.ogg" && queue.path(at: at + 1) == "http://radio.example/y.ogg")
        if let after { #expect(queue.path(at: at + 2) == after) }
    }

    @Test func theDecoderWaitsAtAPlaylistUntilItsEntriesArePlacedThenTakesTheFirst() {
        var queue = PlayQueue(files: ["/a.ogg", listen, "/c.ogg"], shuffle: false, loop: false)
        var cursor = DecodeCursor(queue: queue, next: 1)
        let taken = cursor.take()!
        #expect(taken.path == listen)
        let waits = cursor.awaitEntries(of: taken)
        let next = cursor.advance()
        #expect(waits && next == .wait)
        // The control thread's queue, which the decoder's copy has not seen.
        queue.replace(at: 1, with: entries("x.ogg", "y.ogg"))
        #expect(cursor.queue.count == 3)
        cursor.entriesPlaced(at: 1, in: queue, start: .zero)
        guard case .track(let first) = cursor.advance() else {
            Issue.record("the decoder still waits")
            return
        }
        #expect(first.path == "http://radio.example/x.ogg" && first.orderPosition == 1 && first.origin == [listen])
        let rest = [cursor.take()?.path, cursor.take()?.path]
        #expect(rest == ["http://radio.example/y.ogg", "/c.ogg"])

        // A reposition since the entry was taken: nothing to wait for (it is read again when played again).
        var moved = DecodeCursor(queue: PlayQueue(files: ["/a.ogg", listen], shuffle: false, loop: false), next: 1)
        let stale = moved.take()!
        moved.generation += 1
        let staleWaits = moved.awaitEntries(of: stale)
        let afterStale = moved.advance()
        #expect(!staleWaits && afterStale != .wait)

        // The last entry, with nothing to play: the queue ends there (or loops to its start).
        var looped = PlayQueue(files: ["/a.ogg", listen], shuffle: false, loop: true)
        var last = DecodeCursor(queue: looped, next: 1)
        let end = last.take()!
        let lastWaits = last.awaitEntries(of: end)
        #expect(lastWaits)
        looped.replace(at: 1, with: [])
        last.entriesPlaced(at: 1, in: looped, start: .zero)
        #expect(last.take()?.path == "/a.ogg")
    }

    @Test func theControlThreadPlacesTheEntriesAndItsPositionsMoveWithThem() {
        let rig = PlayerRig(files: ["/music/1.ogg", listen, "/music/3.ogg"], loop: true)
        rig.play(2)
        // The decoder looped back, took the playlist at position 1 and read two entries from it.
        let request = TrackRequest(orderPosition: 1, path: listen, start: .zero, generation: rig.engine.generation)
        rig.machine.handle(
            inbox: [.decoder(.playlistRead(request, entries: entries("x.ogg", "y.ogg"), lines: ["motet: a line from the playlist"]))],
            output: [])
        #expect(rig.allMessages.contains("motet: a line from the playlist"))
        #expect(rig.machine.queue.count == 4 && rig.machine.current?.info.orderPosition == 3)
        // The decoder was told to go on there, and reads the same order as the machine.
        #expect(rig.engine.placed.map(\.position) == [1])
        #expect((0..<4).map(rig.engine.queue.path(at:)) == (0..<4).map(rig.machine.queue.path(at:)))
        // Previous from the third file goes to the playlist's last entry, not its first.
        rig.send(.previous)
        #expect(rig.engine.repositions.last?.position == 2)
    }

    @Test func aPlaylistReadBeforeTheLastRepositionChangesNothing() {
        let rig = PlayerRig(files: ["/music/1.ogg", listen, "/music/3.ogg"])
        rig.play(0)
        let request = TrackRequest(orderPosition: 1, path: listen, start: .zero, generation: rig.engine.generation)
        rig.send(.next)
        rig.machine.handle(inbox: [.decoder(.playlistRead(request, entries: entries("x.ogg", "y.ogg"), lines: []))], output: [])
        #expect(rig.machine.queue.count == 3 && rig.machine.queue.path(at: 1) == listen)
        #expect(rig.engine.placed.isEmpty)
    }

    @Test func aURLsCredentialsReachNoSurface() {
        let secret = "http://listener:s3cret@radio.example/song.ogg"
        let rig = PlayerRig(files: [secret])
        rig.open(0, stream: .init(station: nil, live: false))
        #expect(rig.nowPlaying?.track?.url == "http://radio.example/song.ogg")
        rig.machine.handle(
            inbox: [.decoder(.openFailed(path: secret, orderPosition: 0, error: .network(.httpStatus(404, "Not Found")), listedIn: nil))], output: [])
        let files = rig.allEvents.compactMap { if case .decodeError(let e) = $0 { e.filePath } else { nil } }
        #expect(files == ["http://radio.example/song.ogg"])
        #expect(!"\(rig.allEvents)".contains("s3cret"))
    }
}

/// What a playlist calls a stream is its title when the stream has no TITLE tag.
@Suite struct ListedTitleTests {
    @Test func aStreamWithoutATitleTagIsCalledWhatItsPlaylistCalledIt() {
        let files = ["http://radio.example/jazz", "http://radio.example/tagged", "/music/untagged.ogg"]
        let rig = PlayerRig(files: files)
        rig.machine.queue = PlayQueue(files: files, titles: ["Jazz Radio", "Listed", "Listed Too"], shuffle: false, loop: false)
        rig.open(0, title: "", stream: .init(station: nil, live: true))
        #expect(rig.nowPlaying?.track?.title == "Jazz Radio")
        rig.send(.next)
        rig.open(1, title: "From The Tag", stream: .init(station: nil, live: false))
        #expect(rig.nowPlaying?.track?.title == "From The Tag")
        rig.send(.next)
        rig.open(2, title: "")
        #expect(rig.nowPlaying?.track?.title == "untagged")
    }
}
