import CGIO
import DBusSupport

/// The `Metadata` property (`a{sv}`), with the types the MPRIS spec requires.
struct MPRISMetadata: Sendable, Equatable {
    /// `mpris:trackid`, an object path (`o`), never a string.
    var trackID: String
    /// `mpris:length`, int64 microseconds.
    var lengthMicros: Int64? = nil
    /// `mpris:artUrl`, a file:// URI of the cached artwork.
    var artURL: String? = nil
    var title: String? = nil
    /// `xesam:artist`, an array of strings.
    var artists: [String] = []
    var album: String? = nil
    /// `xesam:url`: a file:// URI of the file playing, or the http(s) URL of a stream.
    var url: String? = nil
    /// `xesam:userRating`: 1.0 liked, 0.0 disliked, absent otherwise.
    var userRating: Double? = nil

    /// A new floating `a{sv}` GVariant.
    func variant() -> OpaquePointer {
        GVariantBuild.dictionary { add in
            add("mpris:trackid", g_variant_new_object_path(trackID))
            if let lengthMicros { add("mpris:length", g_variant_new_int64(Int(lengthMicros))) }
            if let artURL { add("mpris:artUrl", g_variant_new_string(artURL)) }
            if let title { add("xesam:title", g_variant_new_string(title)) }
            if !artists.isEmpty { add("xesam:artist", GVariantBuild.strings(artists)) }
            if let album { add("xesam:album", g_variant_new_string(album)) }
            if let url { add("xesam:url", g_variant_new_string(url)) }
            if let userRating { add("xesam:userRating", g_variant_new_double(userRating)) }
        }
    }
}
