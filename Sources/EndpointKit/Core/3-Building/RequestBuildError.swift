import Foundation

/// Why a request could not be turned into a `URLRequest`.
public enum RequestBuildError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Neither the request nor the client has a base URL.
    case missingBaseURL
    /// The URL could not be formed from the base URL, path and query.
    case invalidURL(String)
    /// A header name is not an RFC 9110 token.
    case invalidHeader(name: String, reason: String)
    /// The body could not be encoded.
    case bodyEncodingFailed(String)
    /// The method does not allow a body (URLSession rejects a `GET` with a body).
    case bodyNotAllowed(HTTPMethod)
    /// The request definition itself threw.
    case definitionFailed(String)
    /// A file to upload is missing or unreadable.
    case unreadableFile(URL, reason: String)
    /// A header value, path or query value holds CR, LF or NUL (in a path or query also
    /// percent-encoded): rejected rather than sent, since it could split or truncate the request
    /// (header injection). `component` is `"path"`, `"query"` or `"header <name>"`.
    case controlCharacter(component: String)

    /// A sentence describing the problem.
    public var description: String {
        switch self {
        case .unreadableFile(let url, let reason): return "The file \(url.path) cannot be read: \(reason)"
        case .missingBaseURL: return "No base URL: set one on the client or the request."
        case .invalidURL(let url): return "Invalid URL: \(url)"
        case .controlCharacter(let component):
            return "The \(component) holds CR, LF or NUL, which could inject into the request."
        case .invalidHeader(let name, let reason):
            return "Invalid header \(name.debugDescription): \(reason)"
        case .bodyEncodingFailed(let detail): return "The body could not be encoded: \(detail)"
        case .bodyNotAllowed(let method): return "\(method) requests cannot carry a body."
        case .definitionFailed(let detail): return "The request definition failed: \(detail)"
        }
    }
}
