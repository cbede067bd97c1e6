import MotetConfiguration
import MotetEvents
import MotetLikes

/// `--skip-disliked`: the one place that decides whether a track is passed over because it was
/// disliked earlier (like a radio service's thumbs-down).
///
/// Asked by the decoder thread right after it opened a track (the rating is keyed by the tags, so
/// it needs them) and before any of its samples are decoded: a passed-over track never reaches the
/// output, never becomes current, and is no skip — the skip limit does not see it. The player says
/// so in one line (`PlayerStateMachine`, `DecoderReport.passedOver`); the decode cursor stops the
/// queue when a whole pass of it had nothing to play (`DecodeCursor.unplayable(disliked:)`).
struct DislikedTracks: Sendable {
    /// `--skip-disliked yes` (the default).
    let enabled: Bool
    /// Where the ratings are; the player's own store, so a dislike given now counts on the next
    /// pass of a loop.
    let feedback: FeedbackStore?

    /// Whether the track opened for `request` with `metadata` is passed over. A seek reopens the
    /// track that plays (`reuseTrackID`): that one is never passed over, even if disliked since.
    func passesOver(_ request: TrackRequest, metadata: TrackMetadata) -> Bool {
        guard enabled, let feedback, request.reuseTrackID == nil else { return false }
        return feedback.rating(path: request.path, title: metadata.title, artists: metadata.artists, album: metadata.album)
            == .disliked
    }

    /// The line for a passed-over track: its title (or file) and how to hear it anyway.
    static func message(path: String, title: String?) -> String {
        // Control characters are escaped where the line is printed (the console).
        let name = title.map { "'\($0)'" } ?? path
        return "motet: skipping \(name): disliked earlier (--skip-disliked no plays it)"
    }

    /// The line when a whole pass of the queue had nothing to play: `disliked` of the `total`
    /// tracks were passed over, the others could not be opened (each has said why). With none
    /// disliked, only `--loop` gets here: it stops rather than trying the same files forever.
    static func nothingLeftMessage(disliked: Int, total: Int) -> String {
        if disliked == 0 {
            let what = total == 1 ? "the only track cannot be played" : "none of the \(total) tracks can be played"
            return "motet: nothing left to play: \(what), so --loop stops here"
        }
        let what =
            disliked == total
            ? (total == 1 ? "the only track is disliked" : "all \(total) tracks are disliked")
            : "of \(total) tracks, \(disliked) are disliked and the others cannot be played"
        return "motet: nothing left to play: \(what) (--skip-disliked no plays them)"
    }
}
