import MotetEvents
import MotetSystem
import MotetOutput

/// The output side's news, in the order it happened: segments reaching the device, starvation,
/// the end, interruptions from the sound server, failures.
extension PlayerStateMachine {
    func handle(_ event: OutputEvent) {
        switch event {
        case .segmentWritten(let boundary):
            if var c = current, c.info.segmentID == boundary.segmentID {
                c.boundary = boundary
                current = c
            } else if let i = ahead.firstIndex(where: { $0.info.segmentID == boundary.segmentID }) {
                ahead[i].boundary = boundary
            } else if earlyBoundaries.count < Self.maxEarlyBoundaries {
                // Its segment's report is in this turn's inbox (or it is from before a reposition,
                // and is forgotten with the next one).
                earlyBoundaries[boundary.segmentID] = boundary
            }
        case .starving(let since):
            phase.underway?.drySince = since
        case .fed:
            phase.underway?.drySince = nil
            resumeAfterStall()
        case .ended:
            if status != .stopped { finishQueue() }
        case .notice(let news):
            handle(news)
        case .failed(let error):
            if error.description != said.outputError {
                said.outputError = error.description
                out.message(error.description)
            }
            if error.endsPlayback {
                outcome.outputFailed = true
                handle(.quit, from: .user)
            }
        }
    }

    private func handle(_ news: OutputNotice) {
        switch news {
        case .glitch:
            said.glitches += 1
            let t = now()
            if said.glitchNoticeAt.map({ t - $0 >= Self.glitchNoticeInterval }) ?? true {
                said.glitchNoticeAt = t
                let glitches = said.glitches
                out.message(
                    "motet: \(outputDescription) ran dry or was suspended (\(glitches) time\(glitches == 1 ? "" : "s") so far):"
                        + " a short gap may be heard; playback goes on")
            }
        case .corkRequested:
            guard phase.isMoving, var underway = phase.underway else { return }
            engine.setPaused(true)
            // The call is the interruption now: a lost device is no longer waited for.
            underway.deviceLost = false
            phase = .interrupted(underway)
            out.events(.interruptionBegan(.corked))
            out.message("motet: interrupted by a call (another stream has the speakers)")
            publishState()
            publishNowPlaying()
        case .uncorkRequested:
            guard case .interrupted(let u) = phase, !u.deviceLost else { return }
            out.events(.interruptionEnded(.corked))
            play()
        case .lost:
            // Loading and playing read `stalled` while it lasts (`PlayerPhase.status`).
            guard phase.underway?.deviceLost == false else { return }
            phase.underway?.deviceLost = true
            out.events(.interruptionBegan(.deviceLost))
            out.message("motet: lost \(outputDescription); will resume when it is back")
            publishState()
            publishNowPlaying()
        case .restored:
            guard phase.underway?.deviceLost == true else { return }
            phase.underway?.deviceLost = false
            out.events(.interruptionEnded(.deviceLost))
            out.message("motet: \(outputDescription) is back; resuming")
            // What was written to the dead stream was never heard: go back to what was.
            if let c = current, let heard = elapsed() {
                reposition(to: c.info.orderPosition, start: heard, keepTrack: true)
            }
            if case .buffering(let u) = phase { phase = current?.heard == true ? .playing(u) : .loading(u) }
            publishState()
            publishNowPlaying()
        }
    }

    /// The sink is fed again after a stall: playing again. Unless a segment is waiting ahead: then
    /// the current one was played out before the stall, and what is fed now is that next segment
    /// (a station's song after a reconnection); it becomes current, and playing, when it is heard
    /// (`advanceHeard`), so that the old track is not announced once more just before its finish.
    func resumeAfterStall() {
        guard case .buffering(let u) = phase, !u.deviceLost, current != nil, ahead.isEmpty else { return }
        phase = .playing(u)
        publishState()
        publishNowPlaying()
    }

    /// What the output is, for a message: "the PulseAudio server", "the ALSA device".
    var outputDescription: String {
        switch configuration.outputName {
        case "pulse": "the PulseAudio server"
        case "alsa": "the ALSA device"
        default: "the \(configuration.outputName) output"
        }
    }
}
