import WebPage

/// The page's files (Plugins/WebPage), embedded in the plugin: served as they are, with their types.
enum PageFiles {
    /// The paths served, with the embedded file's name and its type.
    static let routes: [String: (name: String, contentType: String)] = [
        "/": ("index.html", "text/html; charset=utf-8"),
        "/index.html": ("index.html", "text/html; charset=utf-8"),
        "/style.css": ("style.css", "text/css; charset=utf-8"),
        "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    ]

    /// The file served at `path` and its type, or nil.
    static func file(at path: String) -> (contentType: String, bytes: [UInt8])? {
        guard let route = routes[path] else { return nil }
        var size = 0
        guard let start = motet_web_page_file(route.name, &size) else { return nil }
        return (route.contentType, Array(UnsafeBufferPointer(start: start, count: size)))
    }
}
