import MotetConfiguration
import MotetEvents

/// The queue as the control thread knows it. The decoder may replace an entry that is a playlist
/// by its entries (`PlayedPlaylists`): positions after it move, so every position the control
/// thread keeps counts in the revision of its `queue` (`PlayQueue.translate(_:from:)`).
extension PlayerStateMachine {
    /// Takes `new` (the queue as it is now) as the queue, and moves the positions kept to it. The
    /// caller publishes what changed.
    func adoptQueue(_ new: PlayQueue) {
        let old = queue.revision
        if old != new.revision {
            if var c = current {
                c.info.orderPosition = new.translate(c.info.orderPosition, from: old) ?? c.info.orderPosition
                current = c
            }
            for i in ahead.indices {
                ahead[i].info.orderPosition = new.translate(ahead[i].info.orderPosition, from: old) ?? ahead[i].info.orderPosition
            }
            if var underway = phase.underway, var opening = underway.opening {
                opening.position = new.translate(opening.position, from: old)
                underway.opening = opening
                phase.underway = underway
            } else if case .stopped(let at) = phase {
                phase = .stopped(at: new.translate(at, from: old) ?? at)
            }
        }
        queue = new
    }

    /// A segment as the surfaces see it: its position in this queue's revision, and a URL without
    /// `user:password@` (the decoder fetches with them; nothing shown or sent to a delegate has them).
    func arrived(_ opened: SegmentInfo) -> SegmentInfo {
        var info = opened
        info.orderPosition = queue.translate(info.orderPosition, from: info.queueRevision) ?? info.orderPosition
        info.queueRevision = queue.revision
        if info.orderPosition < queue.count { info.listedTitle = queue.title(at: info.orderPosition) }
        info.path = WebAddress.shown(info.path)
        info.url = info.url.map(WebAddress.shown)
        return info
    }
}
