/// The outcome of sending an ``APIRequest``: a value, a "no" from the server, or no usable answer.
///
/// ```swift
/// switch await client.send(GetUser(id: 7)) {
/// case .success(let user, _): show(user)
/// case .serverFailure(let failure): alert(failure.message ?? "Server said no (\(failure.statusCode))")
/// case .transportError(let error) where error.reason == .cancelled: break
/// case .transportError(let error): retryLater(error.message)
/// }
/// ```
public enum APIResult<Value: Sendable>: Sendable {
    /// The server answered with an acceptable status and the body decoded into `Value`.
    case success(Value, ResponseMetadata)
    /// The server answered "no": an unacceptable HTTP status, or a failing business status in
    /// the response envelope.
    case serverFailure(ServerFailure)
    /// No usable answer: see ``TransportError/Reason``.
    case transportError(TransportError)

    /// The value on success, otherwise `nil`.
    public var value: Value? {
        if case .success(let value, _) = self { return value }
        return nil
    }

    /// The response metadata, when a response was received.
    public var metadata: ResponseMetadata? {
        switch self {
        case .success(_, let metadata): return metadata
        case .serverFailure(let failure): return failure.metadata
        case .transportError(let error): return error.metadata
        }
    }

    /// Whether this is ``success(_:_:)``.
    public var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    /// Returns the value, or throws the failure as an ``APIFailure`` (`.server` or `.transport`).
    ///
    /// `consuming`: a result used once (`try await client.send(request).get()`) hands its value
    /// over without a copy; on a stored result it reads a copy, as before.
    public consuming func get() throws(APIFailure) -> Value {
        switch self {
        case .success(let value, _): return value
        case .serverFailure(let failure): throw .server(failure)
        case .transportError(let error): throw .transport(error)
        }
    }

    /// Transforms the success value, keeping failures as they are.
    public func map<NewValue: Sendable>(_ transform: (Value) throws -> NewValue) rethrows -> APIResult<NewValue> {
        switch self {
        case .success(let value, let metadata): return .success(try transform(value), metadata)
        case .serverFailure(let failure): return .serverFailure(failure)
        case .transportError(let error): return .transportError(error)
        }
    }
}
