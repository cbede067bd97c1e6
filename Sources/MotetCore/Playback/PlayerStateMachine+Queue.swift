import MotetConfiguration
import MotetEvents
import MotetNetwork

/// The play queue, which the control thread alone owns and changes (`PlayQueue`): the decoder
/// reads the order the engine was last given, and asks for changes only by reporting.
extension PlayerStateMachine {
    /// The decoder found that the entry `request` took is a playlist, and read it: its entries
    /// take its place, the positions the control thread holds after it move with them, and the
    /// decoder (waiting at it) goes on with the first. A report from before the last reposition
    /// is dropped: the decoder waits no more, and the entry is read again when it is played again.
    func placeEntries(of request: TrackRequest, _ entries: [InputExpander.PlayedTrack], lines: [String]) {
        guard request.generation == generation else { return }
        for line in lines { out.message(line) }
        let p = request.orderPosition
        let moved = entries.count - 1
        queue.replace(at: p, with: entries)
        func move(_ position: Int) -> Int { position > p ? position + moved : position }
        if var c = current {
            c.info.orderPosition = move(c.info.orderPosition)
            current = c
        }
        for i in ahead.indices { ahead[i].info.orderPosition = move(ahead[i].info.orderPosition) }
        if let at = phase.opening?.position { phase.underway?.opening?.position = move(at) }
        engine.entriesPlaced(at: p, in: queue, start: request.start)
        refreshNextEnabled()  // the playlist's entries may follow the current track
    }

    /// A segment as the surfaces see it: the title its playlist gave it, and a URL without
    /// `user:password@` (the decoder fetches with them; nothing shown or sent to a delegate has them).
    func arrived(_ opened: SegmentInfo) -> SegmentInfo {
        var info = opened
        if info.orderPosition < queue.count { info.listedTitle = queue.title(at: info.orderPosition) }
        info.path = WebAddress.shown(info.path)
        info.url = info.url.map(WebAddress.shown)
        return info
    }
}
