import Foundation

/// Framing checks both transports apply to a response head, where libcurl would accept it.
enum HTTPFraming {
    /// The error for a head whose `Content-Length` fields (each possibly a comma-separated list)
    /// hold two different values, or `nil`.
    ///
    /// RFC 9112 §6.3: a client that receives such a response cannot know where its body ends, and
    /// must treat it as an unrecoverable error and close the connection (libcurl and
    /// FoundationNetworking use the last value). The same value repeated is one length (RFC 9110
    /// §8.6 lets a recipient take it).
    static func contentLengthConflict(inValues values: [String], url: URL?) -> TransportError? {
        var first: Substring?
        for value in values {
            for member in value.split(separator: ",", omittingEmptySubsequences: false) {
                let length = member.trimmingCharacters(in: [" ", "\t"])
                guard let known = first else {
                    first = Substring(length)
                    continue
                }
                if known != length {
                    let target = url.map { " (\($0.redactedForMessages))" } ?? ""
                    return TransportError(
                        .badResponse,
                        message: "The server's response could not be read\(target): it declares different "
                            + "Content-Length values (\(values.joined(separator: ", ").prefix(100))).")
                }
            }
        }
        return nil
    }
}
