@_spi(Internal) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``/EndpointKit/Transport`` that records real exchanges into fixture files once, then replays them with no
/// network.
///
/// ```swift
/// let transport = RecordReplayTransport(directory: RecordReplayTransport.fixtures("UserTests"))
/// let client = APIClient(configuration: .init(baseURL: URL(string: "https://staging.example.com"), transport: transport))
/// ```
///
/// Run the test once with `ENDPOINTKIT_RECORD=1` in the environment: every request goes to the
/// `upstream` transport and each answer is written to `directory` as one JSON file
/// (``fixtureURL(for:)``), with secrets replaced by the ``/EndpointKit/Redactor``. Commit the files; every
/// later run replays them and never touches the network.
///
/// - In replay mode a request without a fixture fails with ``/EndpointKit/TransportError/Reason/other`` whose
///   message holds the path looked for; a fixture that is not valid fails naming the file and the
///   problem. The ``/EndpointKit/TransportError/underlyingError`` is a ``FixtureError``.
/// - In record mode a transport error from `upstream` is passed through and nothing is written;
///   a response is written and then answered exactly as replay will answer it (redacted), so a
///   test behaves the same in both modes.
/// - Identical requests in one test are numbered: the second is replayed from its own file.
/// - Uploads (file bodies, multipart), downloads to a file and progress work as with the real
///   transport; a replayed download body is written to the request's file.
public final class RecordReplayTransport: Transport, Sendable {
    /// Whether requests go to the network and are written down, or are answered from files.
    public enum Mode: Sendable, Hashable {
        /// Send through the upstream transport and write fixtures.
        case record
        /// Answer from fixtures only.
        case replay

        /// `ENDPOINTKIT_RECORD`: set it to `1`, `true` or `yes` to record.
        public static let environmentVariable = "ENDPOINTKIT_RECORD"

        /// ``record`` when ``environmentVariable`` is `1`, `true` or `yes`, else ``replay``.
        /// - Parameter environment: The environment; the process's by default.
        public static func fromEnvironment(
            _ environment: [String: String] = ProcessInfo.processInfo.environment
        ) -> Mode {
            let value = environment[environmentVariable]?.lowercased() ?? ""
            return ["1", "true", "yes"].contains(value) ? .record : .replay
        }
    }

    /// Whether this transport records or replays.
    public let mode: Mode
    /// The folder holding the fixture files.
    public let directory: URL
    /// The rules applied to everything written.
    public let redactor: Redactor
    private let upstream: any Transport
    private let names = FixtureName()
    private let customName: (@Sendable (URLRequest) -> String)?

    /// Creates a transport.
    /// - Parameters:
    ///   - directory: The folder for fixture files; see ``fixtures(_:nextTo:)``.
    ///   - mode: Record or replay; ``Mode/fromEnvironment(_:)`` by default.
    ///   - upstream: The transport that reaches the server when recording; a new
    ///     ``/EndpointKit/URLSessionTransport`` by default. Not used when replaying.
    ///   - redactor: What to hide in fixtures; ``/EndpointKit/Redactor/default`` by default.
    ///   - fixtureName: The file name (without `.json`) for a request, for requests whose query or
    ///     body change on every run; `nil` for `METHOD_path-hash` by default.
    public init(
        directory: URL, mode: Mode = .fromEnvironment(), upstream: (any Transport)? = nil,
        redactor: Redactor = .default, fixtureName: (@Sendable (URLRequest) -> String)? = nil
    ) {
        self.directory = directory
        self.mode = mode
        self.upstream = upstream ?? URLSessionTransport()
        self.redactor = redactor
        customName = fixtureName
    }

    /// The folder `Fixtures/<name>` next to the source file that calls this, so that recorded
    /// files land in the source tree, ready to commit.
    /// - Parameters:
    ///   - name: The subfolder, for example the test case's name.
    ///   - filePath: The calling source file; the caller's by default.
    public static func fixtures(_ name: String, nextTo filePath: StaticString = #filePath) -> URL {
        URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent()
            .appendingPathComponent("Fixtures", isDirectory: true)
            .appendingPathComponent(name, isDirectory: true)
    }

    /// The file the first occurrence of `request` is recorded to and replayed from.
    public func fixtureURL(for request: URLRequest) -> URL {
        directory.appendingPathComponent(baseName(for: request) + ".json")
    }

    /// Replays from, or records to, the request's fixture; see ``/EndpointKit/Transport/execute(_:completion:)``.
    public func execute(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask {
        let task = CompletionTask(completion)
        let body = CapturedBody(request)
        let file = directory.appendingPathComponent(names.next(baseName(for: request.urlRequest, body: body)))
        switch mode {
        case .replay:
            task.finish(after: 0, timeouts: nil) {
                Fixture.load(from: file, for: request.urlRequest)
                    .mapError(Self.transportError)
                    .flatMap { $0.transportResponse(for: request) }
            }
        case .record:
            let redactor = redactor
            let upstreamTask = upstream.execute(request) { outcome in
                task.finish(
                    outcome.flatMap { Self.record($0, of: request, body: body, to: file, redactor: redactor) })
            }
            task.setCancellation { upstreamTask.cancel() }
        }
        return task
    }

    private func baseName(for request: URLRequest, body: CapturedBody? = nil) -> String {
        customName?(request) ?? FixtureName.base(for: request, body: body, redactor: redactor)
    }

    /// Writes the fixture, then answers as replay will: from the fixture, or, for a download the
    /// upstream already wrote to its file, with the upstream's answer.
    private static func record(
        _ response: TransportResponse, of request: TransportRequest, body: CapturedBody, to file: URL,
        redactor: Redactor
    ) -> Result<TransportResponse, TransportError> {
        let label = request.urlRequest.label
        var responseBody = response.data
        if let downloaded = response.fileURL {
            do {
                responseBody = try Data(contentsOf: downloaded)
            } catch {
                let problem = "the downloaded file \(downloaded.path) cannot be read: \(error)"
                return .failure(transportError(FixtureError(.unwritable(problem), path: file.path, request: label)))
            }
            if response.response.statusCode == 206, let offset = request.download?.resumeOffset {
                responseBody = responseBody.dropFirst(Int(offset))
            }
        }
        let fixture = Fixture(
            request: request.urlRequest, requestBody: body.data, response: response.response,
            responseBody: responseBody, redactor: redactor)
        do {
            try fixture.write(to: file)
        } catch {
            return .failure(transportError(FixtureError(.unwritable("\(error)"), path: file.path, request: label)))
        }
        if response.fileURL != nil { return .success(response) }
        return fixture.transportResponse(for: request, reportsProgress: false)
    }

    private static func transportError(_ error: FixtureError) -> TransportError {
        TransportError(.other, message: error.description, underlyingError: error)
    }
}
