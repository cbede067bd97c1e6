#if canImport(Glibc)
import Glibc
#endif
import MotetEvents
import MotetSystem

/// The last directory searched for a cover file, and what was found there.
///
/// A playlist's tracks mostly come one directory after another, and the search reads the whole
/// directory: without this, a directory of 10,000 tracks was read 10,000 times (40 s of a
/// 10,000-track untimed run, against 6.8 s for the same tracks in 100 directories; bench/SOAK.md).
/// The entry is keyed by the directory's device, inode and modification time, which change when a
/// file is added, removed or renamed in it, so a cover put there during playback is still found.
final class CoverSearchCache: Sendable {
    private struct Entry {
        var directory: String
        var device: UInt64
        var inode: UInt64
        var seconds: Int
        var nanoseconds: Int
        var cover: String?
    }

    private let last = Locked<Entry?>(nil)

    /// The cover file beside `trackPath` (`ArtworkStore.coverFile(in:)` of its directory), from the
    /// cache when the directory has not changed since it was searched.
    func cover(beside trackPath: String) -> String? {
        let directory = FileSystem.directory(of: trackPath)
        var info = stat()
        guard stat(directory, &info) == 0 else { return nil }
        let key = (UInt64(info.st_dev), UInt64(info.st_ino), info.st_mtim.tv_sec, info.st_mtim.tv_nsec)
        if let hit = last.withLock({ entry -> String?? in
            guard let entry, entry.directory == directory, entry.device == key.0, entry.inode == key.1,
                entry.seconds == key.2, entry.nanoseconds == key.3
            else { return nil }
            return .some(entry.cover)
        }) {
            return hit
        }
        let cover = ArtworkStore.coverFile(in: directory)
        last.withLock {
            $0 = Entry(directory: directory, device: key.0, inode: key.1, seconds: key.2, nanoseconds: key.3, cover: cover)
        }
        return cover
    }
}
