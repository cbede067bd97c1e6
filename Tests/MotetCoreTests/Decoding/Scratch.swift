import Foundation
import MotetTestSupport

/// A fresh temporary directory for one test, removed when the value goes away.
final class Scratch {
    let path: String
    init(_ label: String = "motet-decoding") throws { path = try Paths.temporaryDirectory(label) }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func file(_ name: String) -> String { path + "/" + name }
}
