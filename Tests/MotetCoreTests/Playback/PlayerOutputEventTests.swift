import Glibc
import Testing

@testable import MotetPlayback
import MotetSystem
import MotetOutput

/// Interruptions, losses, stalls and failures, taken in the order the output sent them.
@Suite struct PlayerOutputEventTests {
    @Test func corkUncorkCorkInOneTurnEndsInterrupted() {
        let rig = PlayerRig()
        rig.play(0)
        rig.output(.notice(.corkRequested), .notice(.uncorkRequested), .notice(.corkRequested))
        #expect(rig.status == .interrupted)
        #expect(rig.engine.paused)
        #expect(rig.engine.pauseCalls == [true, false, true])
        #expect(rig.interruptions == ["began corked", "ended corked", "began corked"])
        #expect(rig.lastState?.status == .interrupted)
        #expect(rig.nowPlaying?.rate == 0)
    }

    @Test func uncorkResumesOnlyWhatTheServerPaused() {
        let rig = PlayerRig()
        rig.play(0)
        rig.send(.pause)
        rig.output(.notice(.corkRequested), .notice(.uncorkRequested))
        #expect(rig.status == .paused)
        #expect(rig.interruptions.isEmpty)
    }

    @Test func lostRestoredLostInOneTurnEndsLostAndTheNextRestoreResumes() {
        let rig = PlayerRig()
        let first = rig.play(0)
        rig.hear(44100 * 10)
        rig.output(.notice(.lost), .notice(.restored), .notice(.lost))
        #expect(rig.status == .stalled)
        #expect(rig.interruptions == ["began deviceLost", "ended deviceLost", "began deviceLost"])
        rig.output(.notice(.restored))
        #expect(rig.interruptions.last == "ended deviceLost")
        // What was written to the dead stream was never heard: back to what was.
        let back = rig.engine.repositions.last
        #expect(back?.position == 0 && back?.reuseTrackID == first.trackID)
        #expect((back?.start ?? .zero) >= .milliseconds(9900))
        rig.open(0, startMicros: back?.start.microseconds ?? 0)
        rig.write(rig.machine.current!.info)
        rig.hear(1)
        #expect(rig.status == .playing)
    }

    @Test func aRingThatRunsDryIsAStallOnlyAfterHalfASecond() {
        let rig = PlayerRig()
        rig.play(0)
        rig.output(.starving(since: rig.now))
        #expect(rig.machine.nextDeadline() == rig.now + .milliseconds(500))
        rig.advance(micros: 499_000)
        rig.machine.tick()
        #expect(rig.status == .playing)
        rig.advance(micros: 1_000)
        rig.machine.tick()
        #expect(rig.status == .stalled)
        #expect(rig.lastState?.status == .stalled)
        rig.output(.fed)
        #expect(rig.status == .playing)
    }

    /// A stall ends when sound is heard again, even if the sink's "fed" comes a turn later (a
    /// station back after a reconnection: the next song's first frame is heard first). The
    /// starvation that made the stall is over then: it does not make a second stall at once (a
    /// "stalled" 4 ms before "playing" on RadioStationTests' reconnection).
    @Test func aStallEndsWhenSoundIsHeardAndDoesNotComeBackBeforeTheSinkSaysFed() {
        let rig = PlayerRig()
        rig.play(0)
        rig.output(.starving(since: rig.now))
        rig.advance(micros: 600_000)
        rig.machine.tick()
        #expect(rig.status == .stalled)
        rig.clearRecords()
        let next = rig.open(1)
        rig.write(next, after: 10)
        rig.advance(micros: 1_000)
        rig.hear(11)
        #expect(rig.status == .playing)
        rig.output(.fed)
        #expect(rig.status == .playing)
        let states = rig.allEvents.compactMap { if case .playbackState(let s) = $0 { s.status } else { nil } }
        #expect(states == [.playing], "\(states)")
    }

    @Test func aShortStarvationIsNoStall() {
        let rig = PlayerRig()
        rig.play(0)
        rig.output(.starving(since: rig.now))
        rig.advance(micros: 200_000)
        rig.output(.fed)
        rig.advance(micros: 400_000)
        rig.machine.tick()
        #expect(rig.status == .playing)
        #expect(!rig.allEvents.contains { if case .playbackState(let s) = $0 { s.status == .stalled } else { false } })
    }

    @Test func aFailureThatEndsTheOutputStopsThePlayer() {
        let rig = PlayerRig()
        rig.play(0)
        let full = OutputError.cannotWrite(path: "/tmp/song.wav", code: ENOSPC, kept: .removed)
        rig.output(.failed(full))
        #expect(rig.machine.outcome.outputFailed)
        #expect(rig.machine.isFinished)
        #expect(rig.allMessages == [full.description])
        #expect(rig.finished.last?.reason == .stopped)
    }

    @Test func glitchesAreShownAtMostOncePerTenSeconds() {
        let rig = PlayerRig()
        rig.play(0)
        rig.output(.notice(.glitch), .notice(.glitch))
        rig.advance(micros: 9_000_000)
        rig.output(.notice(.glitch))
        rig.advance(micros: 1_000_000)
        rig.output(.notice(.glitch))
        #expect(rig.allMessages.count == 2)
        #expect(rig.allMessages.last?.contains("4 times so far") == true)
        #expect(rig.status == .playing)
    }

    @Test func aBoundaryTakenBeforeItsSegmentsReportStillMarksItHeard() {
        let rig = PlayerRig()
        let info = SegmentInfo(
            segmentID: 1, generation: 0, trackID: 1, orderPosition: 0, path: "/music/1.ogg",
            metadata: TrackMetadata(title: "First"), artwork: nil, format: AudioFormat(sampleRate: 44100, channels: 2),
            fileStart: .zero, duration: .microseconds(1_000_000), canSeek: true)
        rig.machine.handle(
            inbox: [.decoder(.segmentOpened(info))],
            output: [.segmentWritten(SegmentBoundary(segmentID: 1, epoch: rig.engine.heardNow.epoch, frame: 0))])
        rig.hear(1)
        #expect(rig.status == .playing)
        #expect(rig.nowPlaying?.track?.title == "First")
    }

    @Test func aQuitRightAfterTheFirstFramesWereHeardCountsAsPlayed() {
        let rig = PlayerRig()
        let info = rig.open(0)
        rig.engine.heardNow.frames = 13230
        rig.machine.handle(
            inbox: [.command(.quit, .user)],
            output: [.segmentWritten(SegmentBoundary(segmentID: info.segmentID, epoch: rig.engine.heardNow.epoch, frame: 0))])
        #expect(rig.machine.outcome.playedAnything)
        #expect(rig.machine.isFinished)
        #expect(rig.finished.map(\.reason) == [.stopped])
    }

    /// A delegate that writes out both at each event (the JSON state file, an MPRIS position) can
    /// trust the order: a change of state comes first, then the now-playing with the new rate,
    /// so no now-playing ever carries a rate the last state contradicts.
    @Test func everyNowPlayingHasTheRateOfTheStateSentBeforeIt() {
        let rig = PlayerRig()
        rig.play(0)
        rig.send(.pause)
        rig.send(.play)
        rig.output(.starving(since: rig.now))
        rig.advance(micros: 600_000)
        rig.machine.tick()
        rig.output(.fed)
        rig.output(.notice(.corkRequested))
        rig.output(.notice(.uncorkRequested))
        rig.send(.next)
        rig.play(1)
        rig.send(.toggle)
        rig.send(.stop)
        var statuses: [PlaybackStatus] = []
        var last: PlaybackStatus?
        for event in rig.allEvents {
            switch event {
            case .playbackState(let s):
                if s.status != last { statuses.append(s.status) }
                last = s.status
            case .nowPlaying(let np) where np.track != nil:
                #expect(np.rate == (last == .playing ? 1 : 0), "now-playing at rate \(np.rate) after \(String(describing: last))")
            default: break
            }
        }
        #expect(statuses == [.loading, .playing, .paused, .playing, .stalled, .playing, .interrupted, .playing, .loading, .playing, .paused, .stopped], "\(statuses)")
    }
}

/// The end of the queue, taken in the same turn as the last segments' reports.
@Suite struct PlayerEndOfQueueTests {
    static func segment(_ id: UInt64, _ position: Int, generation: Int) -> SegmentInfo {
        SegmentInfo(
            segmentID: id, generation: generation, trackID: id, orderPosition: position, path: "/music/\(position + 1).ogg",
            metadata: TrackMetadata(title: "Track \(position + 1)"), artwork: nil,
            format: AudioFormat(sampleRate: 44100, channels: 2), fileStart: .zero, duration: .microseconds(1_000_000),
            canSeek: true)
    }

    @Test func theEndTakenWithTheLastSegmentsReportsFinishesEveryTrack() {
        let rig = PlayerRig(tracks: 2)
        let epoch = rig.engine.heardNow.epoch
        rig.engine.heardNow.frames = 88200
        rig.machine.handle(
            inbox: [
                .decoder(.openFailed(path: "/music/missing.ogg", orderPosition: 0, error: .openFailed(errno: ENOENT), listedIn: nil)),
                .decoder(.segmentOpened(Self.segment(1, 0, generation: 0))),
                .decoder(.segmentOpened(Self.segment(2, 1, generation: 0))),
            ],
            output: [
                .segmentWritten(SegmentBoundary(segmentID: 1, epoch: epoch, frame: 0)),
                .segmentWritten(SegmentBoundary(segmentID: 2, epoch: epoch, frame: 44100)), .ended,
            ])
        #expect(rig.finished.map(\.title) == ["Track 1", "Track 2"])
        #expect(rig.allMessages == ["motet: /music/missing.ogg: no such file — check the path"])
        #expect(rig.machine.outcome.playedAnything)
        #expect(rig.status == .complete)
    }

    @Test func aPreviousInTheSameTurnAsTheEndPlaysThePreviousTrack() {
        let rig = PlayerRig(tracks: 2)
        rig.play(0)
        rig.play(1)
        rig.machine.handle(inbox: [.command(.previous, .user)], output: [.ended])
        #expect(!rig.machine.isFinished)
        #expect(rig.engine.repositions.last?.position == 0)
    }
}
