import MotetConfiguration
import MotetEvents
import MotetNetwork
import MotetSystem

/// Queue entries that are playlists, found when they are played (as mpd and mpv do): a URL whose
/// server answers with a playlist's content type, or a URL with a playlist's name given while
/// playing (MPRIS OpenUri). The decoder thread fetches and reads it (`InputExpander.expandPlayed`:
/// the inputs' parser, limits and lines), reports its entries (`DecoderReport.playlistRead`) and
/// waits; the control thread, the queue's owner, puts them in the entry's place and tells the
/// decoder to go on with the first (`PlaybackEngine.entriesPlaced`).
final class PlayedPlaylists: Sendable {
    private let cursor: Locked<DecodeCursor>
    private let inbox: PlayerInbox
    private let options: NetworkOptions
    /// Remote playlists fetched while playing: at most `InputExpander.remotePlaylistFetchLimit` in
    /// a run, which also ends a server that answers "playlist" listing itself under other names.
    private let budget = Locked(InputExpander.FetchBudget())

    init(cursor: Locked<DecodeCursor>, inbox: PlayerInbox, options: NetworkOptions) {
        self.cursor = cursor
        self.inbox = inbox
        self.options = options
    }

    /// Decoder thread: reads the entry `request` took (`playlist`: the content type its server
    /// answered with; nil: read it as an input) and reports its entries. A park or quit
    /// (`cancelled`) leaves the queue as it was: the entry is read again when it is played again.
    func expand(_ request: TrackRequest, playlist: PlaylistContentType?, cancelled: @escaping @Sendable () -> Bool) {
        var budget = self.budget.withLock { $0 }
        let read = InputExpander.expandPlayed(
            request.path, playlist: playlist, origin: request.origin, budget: &budget,
            fetch: InputExpander.networkFetch(options: options, cancelled: cancelled))
        self.budget.withLock { $0 = budget }
        guard !cancelled(), cursor.withLock({ $0.awaitEntries(of: request) }) else { return }
        inbox.post(.playlistRead(request, entries: read.entries, lines: read.warnings))
    }
}

extension InputExpander {
    /// How the inputs and the player fetch remote playlists: libcurl (loaded on first use) with
    /// `options`, stopped when `cancelled` says so. A failure is the `NetworkError` itself, whose
    /// description is its words without the URL (the expander's line names it).
    public static func networkFetch(options: NetworkOptions, cancelled: @escaping @Sendable () -> Bool = { false }) -> Fetch {
        { url, limit in
            NetworkFetch.get(url, limit: limit, options: options, cancelled: cancelled).mapError { $0 as any Error }
        }
    }
}
