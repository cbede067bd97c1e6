/// What an Internet radio station says about itself in its HTTP response headers (`icy-name`,
/// `icy-description`, `icy-genre`, `icy-url`), each already cleaned of control characters and cut
/// to a sane length by the network layer; nil when the header was absent or empty.
public struct StationInfo: Sendable, Equatable {
    public var name: String?
    public var description: String?
    public var genre: String?
    /// The station's home page (`icy-url`), not the stream's URL.
    public var homepage: String?

    public init(name: String? = nil, description: String? = nil, genre: String? = nil, homepage: String? = nil) {
        self.name = name
        self.description = description
        self.genre = genre
        self.homepage = homepage
    }

    /// True when the station said nothing about itself.
    public var isEmpty: Bool { name == nil && description == nil && genre == nil && homepage == nil }
}
