/// A small document (a remote playlist) fetched whole, with the same options as streams.
public enum NetworkFetch {
    /// What `get` returns: the URL after redirects (relative entries resolve against it), the
    /// declared content type (lower-cased, parameters kept) and the body.
    public typealias Document = (finalURL: String, contentType: String?, body: [UInt8])

    /// Fetches `url` on the calling thread (blocking: at most the connect and low-speed timeouts,
    /// or until `cancelled` says true), refusing bodies larger than `limit` bytes and HTTP errors.
    public static func get(
        _ url: String, limit: Int, options: NetworkOptions = NetworkOptions(), cancelled: @escaping () -> Bool = { false }
    ) -> Result<Document, NetworkError> {
        var body: [UInt8] = []
        var tooLarge = false
        var type: String?
        let transfer = CurlTransfer(
            onHead: { head in
                type = head.contentType
                if head.status >= 400 { return .httpStatus(head.status, head.reason) }
                if let length = head.contentLength, length > Int64(limit) { return .documentTooLarge(limit: limit) }
                return nil
            },
            onBody: { bytes in
                guard body.count + bytes.count <= limit else {
                    tooLarge = true
                    return false
                }
                body.append(contentsOf: bytes)
                return true
            },
            between: cancelled)
        if let error = transfer.perform(url: url, offset: 0, options: options) {
            return .failure(tooLarge ? .documentTooLarge(limit: limit) : error)
        }
        return .success((transfer.effectiveURL ?? url, type, body))
    }
}
