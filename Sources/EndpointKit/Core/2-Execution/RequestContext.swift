/// What interceptors and plugins know about the send they are looking at.
public struct RequestContext: Sendable {
    /// The send's handle identifier (``RequestHandle/id``).
    public let id: UInt64
    /// The endpoint's type name, for example `"GetUser"`.
    public let endpoint: String
    /// The HTTP method.
    public let method: HTTPMethod
    /// The request's tag, if any.
    public let tag: String?
    /// The attempt number, from 1.
    public let attempt: Int
    /// Why each earlier attempt failed, oldest first.
    public let previousFailures: [APIFailure]
    /// What the send carries for plugins: the request's ``APIRequest/sendInfo`` with the send
    /// site's `info:` added.
    public let info: SendInfo

    /// Creates a context. The client does this, and this package's own tests.
    package init(
        id: UInt64, endpoint: String, method: HTTPMethod, tag: String?, attempt: Int, previousFailures: [APIFailure],
        info: SendInfo = .empty
    ) {
        self.info = info
        self.id = id
        self.endpoint = endpoint
        self.method = method
        self.tag = tag
        self.attempt = attempt
        self.previousFailures = previousFailures
    }
}
