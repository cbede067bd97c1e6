import Foundation
import MotetConfiguration
import MotetTestSupport
import Testing
import MotetLikes

@Suite struct FeedbackStoreTests {
    private func contents(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    }

    @Test func ratingsSurviveANewStore() throws {
        let dir = try Paths.temporaryDirectory("motet-feedback") + "/state/motet"
        let store = FeedbackStore(directory: dir)
        #expect(store.rating(path: "/m/a.ogg", title: "Song", artists: ["Band"], album: "LP") == nil)
        try store.set(.liked, path: "/m/a.ogg", title: "Song", artists: ["Band"], album: "LP")
        try store.set(.disliked, path: "/m/b.ogg", title: "Other", artists: [], album: nil)
        #expect(store.rating(path: "/m/a.ogg", title: "Song", artists: ["Band"], album: "LP") == .liked)
        let reopened = FeedbackStore(directory: dir)
        #expect(reopened.rating(path: "/m/a.ogg", title: "Song", artists: ["Band"], album: "LP") == .liked)
        #expect(reopened.rating(path: "/m/b.ogg", title: "Other", artists: [], album: nil) == .disliked)
        #expect(reopened.file == dir + "/feedback")
    }

    @Test func aRenamedFileKeepsItsRatingWhenTagsMatch() throws {
        let dir = try Paths.temporaryDirectory("motet-feedback")
        let store = FeedbackStore(directory: dir)
        try store.set(.liked, path: "/music/old name.ogg", title: "Blue  Moon", artists: ["B", "A"], album: "Nights")
        let renamed = FeedbackStore(directory: dir)
        #expect(renamed.rating(path: "/music/new/name.ogg", title: " blue moon ", artists: ["a", "b"], album: "NIGHTS") == .liked)
        #expect(renamed.rating(path: "/music/new/name.ogg", title: "Blue Moon", artists: ["A"], album: "Nights") == nil,
            "different artists are a different track")
        #expect(renamed.rating(path: "/music/new/name.ogg", title: "Blue Moon", artists: ["A", "B"], album: "Days") == nil)
    }

    @Test func withoutATitleThePathIsTheKey() throws {
        let dir = try Paths.temporaryDirectory("motet-feedback")
        let music = try Paths.temporaryDirectory("motet-feedback-music")
        #expect(FileManager.default.createFile(atPath: music + "/x.ogg", contents: Data("x".utf8)))
        let store = FeedbackStore(directory: dir)
        try store.set(.disliked, path: music + "/x.ogg", title: nil, artists: ["Someone"], album: nil)
        #expect(store.rating(path: music + "/./x.ogg", title: nil, artists: [], album: nil) == .disliked, "canonical path")
        #expect(store.rating(path: music + "/y.ogg", title: nil, artists: ["Someone"], album: nil) == nil)
        #expect(store.rating(path: music + "/x.ogg", title: "   ", artists: [], album: nil) == .disliked, "a blank title is no title")
    }

    @Test func aSongFromAStreamIsKeyedByItsTagsAndNeverByTheURL() throws {
        let dir = try Paths.temporaryDirectory("motet-feedback")
        let store = FeedbackStore(directory: dir)
        try store.set(.liked, path: nil, title: "On Air", artists: ["Ada"], album: nil)
        let text = try String(contentsOfFile: dir + "/feedback", encoding: .utf8)
        #expect(text.contains("liked\ttags:on air|ada|") && !text.contains("\tpath:"), "\(text)")
        // The same song from a local file is the same song.
        #expect(FeedbackStore(directory: dir).rating(path: "/m/on-air.ogg", title: "On Air", artists: ["Ada"], album: nil) == .liked)
        // A song on air without a title cannot be told apart from the next one: not saved, one line why.
        #expect(throws: FeedbackError.self) { try store.set(.disliked, path: nil, title: nil, artists: ["Ada"], album: nil) }
        #expect(store.rating(path: nil, title: nil, artists: ["Ada"], album: nil) == nil)
    }

    @Test func unlikeRemovesTheRating() throws {
        let dir = try Paths.temporaryDirectory("motet-feedback")
        let store = FeedbackStore(directory: dir)
        try store.set(.liked, path: "/a.ogg", title: "T", artists: ["A"], album: nil)
        try store.set(nil, path: "/b.ogg", title: "T", artists: ["A"], album: nil)
        #expect(store.rating(path: "/a.ogg", title: "T", artists: ["A"], album: nil) == nil)
        #expect(FeedbackStore(directory: dir).rating(path: "/a.ogg", title: "T", artists: ["A"], album: nil) == nil)
        let text = try String(contentsOfFile: dir + "/feedback", encoding: .utf8)
        #expect(!text.contains("liked"))
    }

    @Test func writesAreAtomicAndLeaveNoTemporaryFile() throws {
        let dir = try Paths.temporaryDirectory("motet-feedback")
        let store = FeedbackStore(directory: dir)
        for i in 0..<20 {
            try store.set(i % 3 == 0 ? .disliked : .liked, path: "/t\(i).ogg", title: "Track \(i)", artists: ["X"], album: "Y")
        }
        #expect(try contents(dir) == ["feedback"])
        let text = try String(contentsOfFile: dir + "/feedback", encoding: .utf8)
        #expect(text.hasPrefix("# motet feedback 1"))
        #expect(text.split(separator: "\n").count == 21)
        let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/feedback")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func twoStoresOnOneFileDoNotEraseEachOther() throws {
        let dir = try Paths.temporaryDirectory("motet-feedback")
        let first = FeedbackStore(directory: dir)
        let second = FeedbackStore(directory: dir)
        #expect(first.rating(path: "/x", title: "X", artists: [], album: nil) == nil)
        try second.set(.liked, path: "/y", title: "Y", artists: [], album: nil)
        try first.set(.liked, path: "/x", title: "X", artists: [], album: nil)
        #expect(FeedbackStore(directory: dir).rating(path: "/y", title: "Y", artists: [], album: nil) == .liked)
    }

    @Test func concurrentWritersFromSeveralStoresLoseNothing() throws {
        let dir = try Paths.temporaryDirectory("motet-feedback")
        let stores = (0..<4).map { _ in FeedbackStore(directory: dir) }
        DispatchQueue.concurrentPerform(iterations: 40) { i in
            try? stores[i % 4].set(.liked, path: "/c\(i)", title: "Concurrent \(i)", artists: [], album: nil)
        }
        let reopened = FeedbackStore(directory: dir)
        let kept = (0..<40).filter { reopened.rating(path: "/c\($0)", title: "Concurrent \($0)", artists: [], album: nil) == .liked }
        #expect(kept.count == 40)
        #expect(try contents(dir) == ["feedback"])
    }

    @Test func hostileTagsRoundTrip() throws {
        let dir = try Paths.temporaryDirectory("motet-feedback")
        let title = "a\tb\nc\\d|e;f\r\u{1B}"
        try FeedbackStore(directory: dir).set(.liked, path: "/p", title: title, artists: ["x|y", "z;w"], album: "\\")
        #expect(FeedbackStore(directory: dir).rating(path: "/q", title: title, artists: ["z;w", "x|y"], album: "\\") == .liked)
        #expect(FeedbackStore(directory: dir).rating(path: "/q", title: title, artists: ["x", "y", "z;w"], album: "\\") == nil)
        let lines = try String(contentsOfFile: dir + "/feedback", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2, "one header and one rating, on one line")
    }

    @Test func anUnwritableDirectoryIsAnError() throws {
        let root = try Paths.temporaryDirectory("motet-feedback")
        #expect(FileManager.default.createFile(atPath: root + "/file", contents: Data()))
        let store = FeedbackStore(directory: root + "/file/motet")
        #expect(throws: FeedbackError.self) {
            try store.set(.liked, path: "/a", title: "A", artists: [], album: nil)
        }
        do {
            try store.set(.liked, path: "/a", title: "A", artists: [], album: nil)
        } catch {
            #expect(error.description == "motet: cannot create '\(root)/file/motet' for the ratings: not a directory (check the permissions of its parent).")
        }
    }

    @Test func defaultDirectoryFollowsXDGStateHome() {
        #expect(FeedbackStore.defaultDirectory(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/motet")
        #expect(FeedbackStore.defaultDirectory(environment: ["HOME": "/h"]) == "/h/.local/state/motet")
        #expect(FeedbackStore.defaultDirectory(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"]) == "/h/.local/state/motet")
    }
}
