import Foundation

/// Framing checks both transports apply to a response head, where libcurl would accept it.
enum HTTPFraming {
    /// The error for a `Content-Length` field (repeated fields joined with ", ", as both transports
    /// read them) that holds two different values, or `nil`.
    ///
    /// RFC 9112 §6.3: a client that receives such a response cannot know where its body ends, and
    /// must treat it as an unrecoverable error and close the connection (libcurl and
    /// FoundationNetworking use the last value). The same value repeated is one length (RFC 9110
    /// §8.6 lets a recipient take it).
    static func contentLengthConflict(in field: String?, url: URL?) -> TransportError? {
        guard let field, field.contains(",") else { return nil }
        var first: String?
        for member in field.split(separator: ",", omittingEmptySubsequences: false) {
            let length = member.trimmingCharacters(in: [" ", "\t"])
            guard let known = first else {
                first = length
                continue
            }
            if known != length {
                return malformedResponse(
                    "it declares different Content-Length values (\(field.prefix(100)))", url: url)
            }
        }
        return nil
    }

    /// A response that is not HTTP, `problem` saying how: `badResponse`, worded as
    /// FoundationNetworking's own refusals are reported.
    static func malformedResponse(_ problem: String, url: URL?) -> TransportError {
        let target = url.map { " (\($0.redactedForMessages))" } ?? ""
        return TransportError(.badResponse, message: "The server's response could not be read\(target): \(problem).")
    }
}
