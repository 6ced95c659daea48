/// One way a request differs from its ``EndpointContract``, with a diff: `-` lines say what was
/// expected, `+` lines what was sent.
public struct ContractMismatch: Sendable, Hashable, CustomStringConvertible {
    /// The part of the request that differs.
    public enum Aspect: Sendable, Hashable, CustomStringConvertible {
        /// The request could not be built at all.
        case build
        /// The method.
        case method
        /// The full URL.
        case url
        /// The query parameters.
        case query
        /// The header with this name.
        case header(String)
        /// The body.
        case body

        /// The aspect in words, such as `header "Accept"`.
        public var description: String {
            switch self {
            case .build: return "build"
            case .method: return "method"
            case .url: return "URL"
            case .query: return "query"
            case .header(let name): return "header \(name.debugDescription)"
            case .body: return "body"
            }
        }
    }

    /// The part of the request that differs.
    public let aspect: Aspect
    /// What differs, in a few words.
    public let summary: String
    /// The diff: `- expected` and `+ actual` lines. May be empty.
    public let diff: [String]

    /// Creates a mismatch.
    /// - Parameters:
    ///   - aspect: The part of the request.
    ///   - summary: What differs, in a few words.
    ///   - diff: `- expected` and `+ actual` lines. None by default.
    public init(_ aspect: Aspect, _ summary: String, diff: [String] = []) {
        self.aspect = aspect
        self.summary = summary
        self.diff = diff
    }

    /// The aspect, the summary and the indented diff, one per line.
    public var description: String {
        (["\(aspect): \(summary)"] + diff.map { "  " + $0 }).joined(separator: "\n")
    }
}
