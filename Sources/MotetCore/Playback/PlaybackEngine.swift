/// What the player's state machine asks of the threads that decode and play (the decoder and the
/// sink worker). Called only on the control thread. `WorkerEngine` is the real one; the tests
/// script one.
protocol PlaybackEngine: AnyObject {
    /// Stops both workers at a safe point, forgets everything decoded and buffered, and points the
    /// decoder at play-order `position` from `start` (nil: nothing more to decode), keeping
    /// track id `reuseTrackID` when it is a seek within the same track. The workers go on at once
    /// unless `hold`, in which case they wait for `release()` (a stop). Returns the new decoder
    /// generation: reports of segments opened before it are stale. `backwards` (a previous): a
    /// track passed over there (`DislikedTracks`) is passed over towards the start of the queue.
    /// `fade`: what was playing at the cut (`cut()`) is not cut but faded (README, "Crossfade"):
    /// a held stop lets the fade play, then holds the decoder.
    func reposition(
        to position: Int?, start: Duration, reuseTrackID: UInt64?, hold: Bool, backwards: Bool, fade: (FadePlace, CutFade)?
    ) -> Int

    /// Parks both workers (until the next `reposition` or `release`) and says where the output's
    /// sound stops if it is reset now: the frame a fade out of it starts from, and, when a stream
    /// plays there, up to `tail` of what was to play from there (`OutputCut.tail`).
    func cut(tail: Duration) -> OutputCut

    /// Lets workers held by `reposition(…, hold: true)` go on.
    func release()

    /// Pauses or resumes the output: while paused nothing is written and the heard clock stands.
    /// `atPausePoint`: the pause comes where the fade-out of a `.declickThenPause` reposition ends.
    func setPaused(_ paused: Bool, atPausePoint: Bool)

    /// The output's gain (volume), 0 to 1, applied to samples not yet written.
    func setVolume(_ scale: Float)

    /// The heard position now.
    func heard() -> HeardNow

    /// Changes the play order under the decoder's feet: `body` changes `queue` (the control
    /// thread's own) knowing the last position the decoder has taken (nil: none since the last
    /// reposition), at a moment the decoder takes nothing; the decoder then reads the new order and
    /// what comes next is recomputed from it.
    func changeQueue(_ queue: inout PlayQueue, _ body: (inout PlayQueue, _ lastDecoded: Int?) -> Void)

    /// The playlist the decoder found at `position` (`DecoderReport.playlistRead`) has been
    /// replaced by its entries in `queue`: the decoder, waiting at it, goes on with the first
    /// of them (from `start`), or with what followed when there were none.
    func entriesPlaced(at position: Int, in queue: PlayQueue, start: Duration)

    /// Names the heard track to the output device (`AudioOutput.describe`).
    func describe(title: String?, artist: String?)
}

extension PlaybackEngine {
    func setPaused(_ paused: Bool) { setPaused(paused, atPausePoint: false) }

    /// A reposition that goes on forwards from `position`.
    func reposition(to position: Int?, start: Duration, reuseTrackID: UInt64?, hold: Bool) -> Int {
        reposition(to: position, start: start, reuseTrackID: reuseTrackID, hold: hold, backwards: false, fade: nil)
    }

    /// A scripted engine has no device to tell.
    func describe(title: String?, artist: String?) {}
}
