import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A base class for endpoints written as subclasses, in the style of YTKNetwork's `YTKRequest`.
///
/// Override what differs from the defaults; only ``path`` is needed for a `GET`. Declare the
/// subclass `nonisolated`:
///
/// ```swift
/// nonisolated final class UserRequest: BaseRequest<User> {
///     let userID: Int
///     init(userID: Int) { self.userID = userID }
///     override var path: RequestPath { "/users/\(userID)" }
/// }
///
/// nonisolated final class UpdateAvatar: BaseRequest<Empty> {
///     override var baseURL: URL? { URL(string: "https://upload.example.com") }
///     override var method: HTTPMethod { .post }
///     override var path: RequestPath { "/me/avatar" }
///     override var parameters: RequestParameters { .form(["size": "large"]) }
///     override var headers: HTTPHeaders { ["X-Client": "ios"] }
///     override var idleTimeout: TimeInterval? { 120 }     // YTK's requestTimeoutInterval
///     override var tag: String? { "profile" }
/// }
///
/// let request = UserRequest(userID: 7)
/// request.delegate = self
/// request.start(with: client)          // again later: start(with:) may be called any number of times
/// ```
///
/// A request object is reusable: each ``start(with:info:completion:)`` is a new send, and starting
/// while a previous send is still running cancels that one first (it completes as cancelled).
/// The ``delegate`` is held weakly and hears about every send of this object, whichever API
/// started it.
///
/// The class is isolated to the main actor, as the controllers that use it are: that is what
/// makes it, and every subclass, `Sendable`. Its endpoint members (``path``, ``parameters``...)
/// are `nonisolated` because the client reads them off the main actor. `nonisolated` on the
/// subclass makes its initializers, stored properties and overrides nonisolated too, so tests,
/// stubs and sample responses read `userID` from anywhere, and the subclass compiles as written
/// in a module whose default isolation is `MainActor` (an Xcode 26 app target), where it would
/// otherwise fail with "main actor-isolated property 'path' has different actor isolation from
/// nonisolated overridden declaration". Its stored properties are `let`s (the compiler checks
/// it); ``start(with:info:completion:)``, ``stop()`` and ``delegate`` stay on the main actor.
@MainActor
open class BaseRequest<Response: Sendable>: APIRequest, DelegatingRequest {
    private struct State {
        weak var delegate: (any APIRequestDelegate)?
        var handle: RequestHandle?
    }

    nonisolated private let state = Locked(State())

    /// Creates a request.
    nonisolated public init() {}

    /// The base URL override. `nil` (the client's) unless overridden.
    nonisolated open var baseURL: URL? { nil }
    /// The path relative to the base URL. Override it; the default is the base URL itself.
    nonisolated open var path: RequestPath { "" }
    /// The HTTP method. `GET` unless overridden.
    nonisolated open var method: HTTPMethod { .get }
    /// Query parameters and body. None unless overridden.
    nonisolated open var parameters: RequestParameters { .none }
    /// Extra headers. None unless overridden.
    nonisolated open var headers: HTTPHeaders { .empty }
    /// The connect timeout in seconds. `nil` (the client's) unless overridden.
    nonisolated open var connectTimeout: TimeInterval? { nil }
    /// The idle timeout in seconds (YTK's `requestTimeoutInterval`). `nil` (the client's) unless
    /// overridden.
    nonisolated open var idleTimeout: TimeInterval? { nil }
    /// The total deadline in seconds; 0 or less for none. `nil` (the client's) unless overridden.
    nonisolated open var totalTimeout: TimeInterval? { nil }
    /// The envelope. `nil` (the client's) unless overridden.
    nonisolated open var envelope: (any ResponseEnvelope)? { nil }
    /// The decoder. `nil` (the client's) unless overridden.
    nonisolated open var decoder: JSONDecoder? { nil }
    /// The encoder. `nil` (the client's) unless overridden.
    nonisolated open var encoder: JSONEncoder? { nil }
    /// The validation. `nil` (the client's) unless overridden.
    nonisolated open var validation: ResponseValidation? { nil }

    /// The tag for group cancellation. `nil` unless overridden.
    nonisolated open var tag: String? { nil }
    /// The retry policy. `nil` (the client's) unless overridden.
    nonisolated open var retrier: (any RequestRetrier)? { nil }
    /// This request's own interceptors, run after the client's. None unless overridden.
    nonisolated open var interceptors: [any RequestInterceptor] { [] }
    /// The priority. ``RequestPriority/normal`` unless overridden.
    nonisolated open var priority: RequestPriority { .normal }
    /// Whether identical requests in flight share one network call. `nil` (the client's setting)
    /// unless overridden.
    nonisolated open var coalescesIdenticalRequests: Bool? { nil }
    /// What every send tells interceptors and plugins (feedback switches...). Empty unless
    /// overridden.
    nonisolated open var sendInfo: SendInfo { .empty }
    /// What answers a `Basic` or `Digest` challenge from this request's origin. `nil` (the
    /// client's, for its base URL's origin only) unless overridden.
    nonisolated open var credential: HTTPCredential? { nil }
    /// Decides each redirect (see ``APIRequest/redirectHandler``). `nil` (the client's
    /// ``RedirectPolicy`` alone) unless overridden.
    nonisolated open var redirectHandler: (@Sendable (Redirect) -> RedirectAction)? { nil }

    /// The cache policy (YTK's `cacheTimeInSeconds`, `cacheVersion`...). `nil` (the client's)
    /// unless overridden.
    nonisolated open var cachePolicy: CachePolicy? { nil }

    /// Transforms the raw body before decoding. Returns it unchanged unless overridden.
    nonisolated open func transformBody(_ data: Data, metadata: ResponseMetadata) throws -> Data { data }

    /// Checks a response before decoding (see ``APIRequest/validate(_:)``). Accepts every
    /// response unless overridden.
    nonisolated open func validate(_ response: ResponseMetadata) throws {}

    /// Decodes the response. For a `Decodable` `Response` this is
    /// ``DecodingContext/decodeDefault(_:)``; override it for any other type.
    nonisolated open func decode(_ context: DecodingContext) throws -> Response {
        guard let decodable = Response.self as? any Decodable.Type else {
            throw DecodingError.typeMismatch(
                Response.self,
                .init(
                    codingPath: [],
                    debugDescription: "\(Response.self) is not Decodable: override decode(_:) in \(Self.self)."))
        }
        return try decodeDefault(decodable, context)
    }

    nonisolated private func decodeDefault<Value: Decodable>(
        _ type: Value.Type, _ context: DecodingContext
    ) throws -> Response {
        guard let value = try context.decodeDefault(Value.self) as? Response else {
            throw DecodingError.typeMismatch(Response.self, .init(codingPath: [], debugDescription: "Unexpected type."))
        }
        return value
    }

    /// The object told about every send of this request, on the main actor. Held weakly.
    public var delegate: (any APIRequestDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    nonisolated var weakDelegate: WeakReference<any APIRequestDelegate>? {
        state.withLock { $0.delegate }.map { WeakReference($0) }
    }

    /// Whether a send started with ``start(with:info:completion:)`` is still running.
    public var isExecuting: Bool { state.withLock { $0.handle?.isRunning ?? false } }

    /// Sends this request (again). A send still running is cancelled first.
    /// - Parameters:
    ///   - client: The client to send through.
    ///   - info: What this send tells plugins, added to ``sendInfo``. Empty by default.
    ///   - completion: Called once on the main actor, before the delegate; `nil` to rely on the
    ///     delegate.
    /// - Returns: The handle of this send.
    @discardableResult
    public func start(
        with client: APIClient, info: SendInfo = .empty,
        completion: (@MainActor @Sendable (APIResult<Response>) -> Void)? = nil
    )
        -> RequestHandle
    {
        state.withLock { $0.handle }?.cancel()
        let handle = client.send(self, info: info) { result in completion?(result) }
        state.withLock { $0.handle = handle }
        return handle
    }

    /// Cancels the send started by ``start(with:info:completion:)``, if it is still running.
    public func stop() {
        state.withLock { $0.handle }?.cancel()
    }
}

/// A request that carries its own delegate (``BaseRequest``).
protocol DelegatingRequest: Sendable {
    nonisolated var weakDelegate: WeakReference<any APIRequestDelegate>? { get }
}
