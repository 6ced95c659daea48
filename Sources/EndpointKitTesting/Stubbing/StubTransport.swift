import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``Transport`` that answers from canned responses instead of the network, for unit tests of
/// code that uses an `APIClient`.
///
/// ```swift
/// let stubs = StubTransport()
/// stubs.stub(.get, "/users/7", status: 200, json: #"{"id":7,"name":"Ada"}"#)
/// let client = APIClient(configuration: .init(baseURL: URL(string: "https://api.test"), transport: stubs))
/// ```
///
/// Requests that match no stub fail with ``TransportError/Reason/other`` and a message naming
/// the request and the stubs that exist. Later stubs win over earlier ones for the same request.
public final class StubTransport: Transport, @unchecked Sendable {
    /// A canned answer.
    public enum Answer: Sendable {
        /// An HTTP response.
        case response(status: Int, headers: [String: String], body: Data)
        /// A transport failure.
        case failure(TransportError)
    }

    private struct Stub {
        let method: HTTPMethod
        let path: String
        let answer: Answer
    }

    private let lock = NSLock()
    private var stubs: [Stub] = []
    private var recorded: [URLRequest] = []

    /// Creates a transport with no stubs.
    public init() {}

    /// Answers requests with this method and URL path.
    public func stub(_ method: HTTPMethod, _ path: String, answer: Answer) {
        lock.withLock { stubs.append(Stub(method: method, path: path, answer: answer)) }
    }

    /// Answers requests with this method and URL path with a JSON body.
    public func stub(_ method: HTTPMethod, _ path: String, status: Int = 200, json: String) {
        stub(
            method, path,
            answer: .response(status: status, headers: ["Content-Type": "application/json"], body: Data(json.utf8)))
    }

    /// Every request seen so far, in order.
    public var requests: [URLRequest] { lock.withLock { recorded } }

    /// Answers from the matching stub, asynchronously.
    public func execute(
        _ request: TransportRequest, completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask {
        let urlRequest = request.urlRequest
        let method = HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET")
        let path = urlRequest.url?.path ?? ""
        let (match, known) = lock.withLock { () -> (Stub?, [String]) in
            recorded.append(urlRequest)
            let match = stubs.last { $0.method == method && $0.path == path }
            return (match, stubs.map { "\($0.method) \($0.path)" })
        }
        let task = StubTask()
        DispatchQueue.global().async {
            guard task.begin() else {
                completion(.failure(TransportError(.cancelled, message: "The request was cancelled.")))
                return
            }
            completion(Self.result(for: match, known: known, request: urlRequest))
        }
        return task
    }

    private static func result(
        for stub: Stub?, known: [String], request: URLRequest
    ) -> Result<TransportResponse, TransportError> {
        let label = "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")"
        guard let stub else {
            let list = known.isEmpty ? "none" : known.joined(separator: ", ")
            return .failure(TransportError(.other, message: "No stub matches \(label). Stubs: \(list)."))
        }
        switch stub.answer {
        case .failure(let error):
            return .failure(error)
        case .response(let status, let headers, let body):
            guard let url = request.url,
                let response = HTTPURLResponse(
                    url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
            else {
                return .failure(TransportError(.badResponse, message: "Could not build a stub response for \(label)."))
            }
            return .success(TransportResponse(response: response, data: body))
        }
    }
}

private final class StubTask: TransportTask, @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var started = false

    func begin() -> Bool {
        lock.withLock {
            started = true; return !cancelled
        }
    }
    func cancel() { lock.withLock { cancelled = true } }
}
