/// A failed attempt: a "no" from the server, or no usable answer.
///
/// What ``APIResult/failure`` returns, and what retriers, interceptors and batches are told.
/// Read it through its accessors rather than by casting (`failure as? TransportError` is never
/// true: the error is inside a case):
///
/// ```swift
/// let result = await client.send(GetUser(id: 7))
/// if result.failure?.transportError?.reason == .notConnected { showToast("You are offline") }
/// if let failure = result.failure?.serverFailure, failure.statusCode == 401 { signIn() }
/// log(result.failure?.message ?? "ok")
/// ```
public enum APIFailure: Error, Sendable, CustomStringConvertible {
    /// The server answered "no".
    case server(ServerFailure)
    /// No usable answer.
    case transport(TransportError)

    /// The server's "no", or `nil` when there was no usable answer.
    public var serverFailure: ServerFailure? {
        if case .server(let failure) = self { return failure }
        return nil
    }

    /// Why there was no usable answer, or `nil` when the server said "no".
    public var transportError: TransportError? {
        if case .transport(let error) = self { return error }
        return nil
    }

    /// The HTTP status, when the server answered.
    public var statusCode: Int? {
        switch self {
        case .server(let failure): return failure.statusCode
        case .transport(let error): return error.metadata?.statusCode
        }
    }

    /// A message for the user or the log: the envelope's message of a server failure (`nil` when
    /// the body had none), or the transport error's sentence.
    public var message: String? {
        switch self {
        case .server(let failure): return failure.message
        case .transport(let error): return error.message
        }
    }

    /// The failure's own description.
    public var description: String {
        switch self {
        case .server(let failure): return failure.description
        case .transport(let error): return error.description
        }
    }
}

extension APIResult {
    /// The failure, or `nil` on success: `result.failure?.transportError?.reason`,
    /// `result.failure?.serverFailure?.code`.
    public var failure: APIFailure? {
        switch self {
        case .success: return nil
        case .serverFailure(let failure): return .server(failure)
        case .transportError(let error): return .transport(error)
        }
    }
}
