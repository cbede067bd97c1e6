import Foundation
import MotetConfiguration
import MotetTestSupport
import Testing

@testable import MotetPlayback
import MotetSystem
import MotetLikes

/// `--skip-disliked`: which track is passed over (one place, `DislikedTracks`), when a pass of the
/// queue has nothing left (`DecodeCursor`), and what the player says (the state machine).
@Suite struct DislikedTrackTests {
    private func request(_ path: String, reuse: UInt64? = nil) -> TrackRequest {
        TrackRequest(orderPosition: 0, path: path, start: .zero, reuseTrackID: reuse, generation: 0)
    }

    @Test func aTrackDislikedEarlierIsPassedOverUnlessSwitchedOffOrReopenedByASeek() throws {
        let dir = try Paths.temporaryDirectory("motet-disliked")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = FeedbackStore(directory: dir)
        let bad = TrackMetadata(title: "Bad Song", artists: ["Band"], album: "LP")
        let good = TrackMetadata(title: "Good Song", artists: ["Band"], album: "LP")
        try store.set(.disliked, path: "/music/bad.ogg", title: bad.title, artists: bad.artists, album: bad.album)
        try store.set(.liked, path: "/music/good.ogg", title: good.title, artists: good.artists, album: good.album)
        let on = DislikedTracks(enabled: true, feedback: store)
        // By its tags: a renamed copy is passed over too.
        #expect(on.passesOver(request("/elsewhere/renamed.ogg"), metadata: bad))
        #expect(!on.passesOver(request("/music/good.ogg"), metadata: good))
        #expect(!on.passesOver(request("/music/bad.ogg", reuse: 7), metadata: bad), "a seek reopens what plays")
        #expect(!DislikedTracks(enabled: false, feedback: store).passesOver(request("/music/bad.ogg"), metadata: bad))
        #expect(!DislikedTracks(enabled: true, feedback: nil).passesOver(request("/music/bad.ogg"), metadata: bad))
    }

    @Test func aWholePassWithNothingToPlayStopsTheCursorOnceAlsoWhenLooping() {
        var cursor = DecodeCursor(queue: PlayQueue(files: ["a", "b", "c"], shuffle: false, loop: true), next: 0)
        // a plays, b and c are disliked: the pass goes on to a again.
        _ = cursor.take()
        cursor.opened()
        _ = cursor.take()
        let said1 = cursor.unplayable(disliked: true)
        #expect(!said1)
        _ = cursor.take()
        let said2 = cursor.unplayable(disliked: true)
        #expect(!said2)
        let again = cursor.take()
        #expect(again?.path == "a")
        // Now a is disliked too (given while it played): b, c, a make a whole pass with nothing
        // to play, and nothing more is taken.
        let whole = cursor.unplayable(disliked: true)
        #expect(whole)
        let none = cursor.take()
        #expect(none == nil, "no busy loop over disliked tracks")
        #expect(cursor.dislikedInARow == 3)

        // Files that cannot be opened count towards the pass, but alone they are not "disliked".
        var mixed = DecodeCursor(queue: PlayQueue(files: ["a", "b"], shuffle: false, loop: false), next: 0)
        _ = mixed.take()
        let said6 = mixed.unplayable(disliked: false)
        #expect(!said6)
        _ = mixed.take()
        let said7 = mixed.unplayable(disliked: true)
        #expect(said7)
        var failing = DecodeCursor(queue: PlayQueue(files: ["a"], shuffle: false, loop: false), next: 0)
        _ = failing.take()
        let said8 = failing.unplayable(disliked: false)
        #expect(!said8)
    }

    @Test func aLoopOverFilesThatCannotBeOpenedStopsAfterOnePass() {
        // --loop over files none of which opens (junk, Ogg Opus): one pass, then nothing more is
        // taken, instead of trying them again and again at full speed.
        var cursor = DecodeCursor(queue: PlayQueue(files: ["junk.ogg", "opus.ogg"], shuffle: false, loop: true), next: 0)
        _ = cursor.take()
        let first = cursor.unplayable(disliked: false)
        #expect(!first)
        _ = cursor.take()
        let whole = cursor.unplayable(disliked: false)
        #expect(whole)
        let none = cursor.take()
        #expect(none == nil, "no busy loop over files that cannot be opened")
        #expect(
            DislikedTracks.nothingLeftMessage(disliked: 0, total: 2)
                == "motet: nothing left to play: none of the 2 tracks can be played, so --loop stops here")
        #expect(
            DislikedTracks.nothingLeftMessage(disliked: 0, total: 1)
                == "motet: nothing left to play: the only track cannot be played, so --loop stops here")
        // One that opens in the pass starts the count again: a loop with something to play goes on.
        var mixed = DecodeCursor(queue: PlayQueue(files: ["good.ogg", "junk.ogg"], shuffle: false, loop: true), next: 0)
        for _ in 0..<3 {
            _ = mixed.take()
            mixed.opened()
            _ = mixed.take()
            let said = mixed.unplayable(disliked: false)
            #expect(!said)
        }
        #expect(mixed.take()?.path == "good.ogg")
    }

    @Test func aPreviousPassesOverADislikedTrackTowardsTheStart() {
        // a, b (disliked), c: previous on c goes to b, which is passed over to a, and what follows
        // a is b again (passed over forwards then).
        var cursor = DecodeCursor(queue: PlayQueue(files: ["a", "b", "c"], shuffle: false, loop: false), next: 1)
        cursor.backwards = true
        #expect(cursor.take()?.path == "b")
        _ = cursor.unplayable(disliked: true)
        #expect(cursor.take()?.path == "a")
        cursor.opened()
        #expect(cursor.take()?.path == "b")
        // Off the start of a queue that does not loop, it goes forwards again rather than ending.
        var first = DecodeCursor(queue: PlayQueue(files: ["a", "b"], shuffle: false, loop: false), next: 0)
        first.backwards = true
        #expect(first.take()?.path == "a")
        _ = first.unplayable(disliked: true)
        #expect(first.take()?.path == "b")
    }

    @Test func previousAsksForAPassBackwardsAndNextForwards() {
        let rig = PlayerRig(tracks: 3)
        rig.play(0)
        rig.play(2)
        rig.send(.previous)
        #expect(rig.engine.repositions.last?.position == 1)
        #expect(rig.engine.repositions.last?.backwards == true)
        rig.play(1)
        rig.send(.next)
        #expect(rig.engine.repositions.last?.backwards == false)
    }

    @Test func thePlayerSaysWhatItPassesOverAndItIsNoSkip() {
        let rig = PlayerRig(tracks: 3, skipLimit: (count: 1, minutes: 60))
        rig.open(0)
        rig.machine.handle(inbox: [.decoder(.passedOver(path: "/music/2.ogg", title: "Track 2", generation: 0))], output: [])
        #expect(rig.allMessages == ["motet: skipping 'Track 2': disliked earlier (--skip-disliked no plays it)"])
        var limiter = rig.machine.skipLimiter
        #expect(limiter?.left(at: rig.now) == 1, "passing over is no skip")
        rig.machine.handle(inbox: [.decoder(.passedOver(path: "/music/3.ogg", title: nil, generation: 0))], output: [])
        #expect(rig.allMessages.last == "motet: skipping /music/3.ogg: disliked earlier (--skip-disliked no plays it)")
        rig.machine.handle(inbox: [.decoder(.nothingLeft(disliked: 3, total: 3, generation: 0))], output: [])
        #expect(rig.allMessages.last == "motet: nothing left to play: all 3 tracks are disliked (--skip-disliked no plays them)")
        // A report from before a reposition is stale.
        let count = rig.allMessages.count
        rig.machine.handle(inbox: [.decoder(.passedOver(path: "/music/1.ogg", title: "Old", generation: -1))], output: [])
        #expect(rig.allMessages.count == count)
        #expect(
            DislikedTracks.nothingLeftMessage(disliked: 2, total: 3)
                == "motet: nothing left to play: of 3 tracks, 2 are disliked and the others cannot be played (--skip-disliked no plays them)")
    }

    @Test func aTrackPassedOverIsNamedOnceARunAlsoWhenLooping() {
        let rig = PlayerRig(tracks: 2, loop: true)
        rig.open(0)
        for _ in 0..<3 {
            rig.machine.handle(inbox: [.decoder(.passedOver(path: "/music/2.ogg", title: "Track 2", generation: rig.engine.generation))], output: [])
        }
        #expect(rig.allMessages == ["motet: skipping 'Track 2': disliked earlier (--skip-disliked no plays it)"])
    }
}
