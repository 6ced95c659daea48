import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Logs requests and responses, with secrets redacted.
///
/// `Authorization`, `Cookie`, `Set-Cookie` and `Proxy-Authorization` values, and the values of
/// secret query parameters, form fields and JSON keys, never reach a log line: everything goes
/// through a ``Redactor`` (the same rules as recorded test fixtures). Bodies are cut at
/// `bodyLimit` bytes. At ``Level/debug`` each response also gets a line with its
/// ``TransferMetrics`` (phases, bytes, connection reuse, HTTP version, server address).
///
/// ```swift
/// $0.plugins = [LoggerPlugin(level: .debug, redactor: .default.adding(parameterNames: ["session"]))]
/// ```
public struct LoggerPlugin: APIPlugin {
    /// How much is logged.
    public enum Level: Sendable, Comparable {
        /// Nothing.
        case off
        /// Failed requests only, one line each.
        case error
        /// One line per attempt sent, per response, and per completed request.
        case info
        /// Also headers and bodies.
        case debug
    }

    /// How much is logged.
    let level: Level
    /// What is redacted.
    let redactor: Redactor
    /// The most body bytes written per message.
    let bodyLimit: Int
    private let sink: @Sendable (String) -> Void

    /// Creates a logger.
    /// - Parameters:
    ///   - level: ``Level/info`` by default.
    ///   - redactor: ``Redactor/default`` by default.
    ///   - bodyLimit: 4096 bytes by default.
    ///   - sink: Where lines go; standard output by default.
    public init(
        level: Level = .info, redactor: Redactor = .default, bodyLimit: Int = 4096,
        sink: @escaping @Sendable (String) -> Void = { print($0) }
    ) {
        self.level = level
        self.redactor = redactor
        self.bodyLimit = max(0, bodyLimit)
        self.sink = sink
    }

    /// Logs the attempt about to be sent.
    public func willSend(_ request: URLRequest, context: RequestContext) {
        guard level >= .info else { return }
        let safe = redactor.redact(request)
        var lines = ["→ \(label(context)) \(safe.httpMethod ?? "GET") \(safe.url?.absoluteString ?? "")"]
        if level >= .debug {
            lines += (safe.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }
            if let body = safe.httpBody, !body.isEmpty { lines.append("  " + describe(body)) }
        }
        sink(lines.joined(separator: "\n"))
    }

    /// Logs the attempt's response or transport error.
    public func didReceive(
        _ outcome: Result<TransportResponse, TransportError>, for request: URLRequest, context: RequestContext
    ) {
        guard level >= .info else { return }
        switch outcome {
        case .success(let received):
            var lines = ["← \(label(context)) HTTP \(received.head.statusCode), \(received.data.count) bytes"]
            if level >= .debug {
                if let metrics = received.metrics { lines.append("  metrics: \(metrics)") }
                let headers = received.head.headerFields.map {
                    ($0.name, redactor.redactHeader($0.name, value: $0.value))
                }
                lines += headers.sorted { $0.0 < $1.0 }.map { "  \($0.0): \($0.1)" }
                let contentType = received.head.value(forHTTPHeaderField: "Content-Type")
                if !received.data.isEmpty {
                    lines.append("  " + describe(redactor.redactBody(received.data, contentType: contentType)))
                }
            }
            sink(lines.joined(separator: "\n"))
        case .failure(let error):
            sink("← \(label(context)) \(error.reason): \(error.message)")
        }
    }

    /// Logs how the request ended.
    public func didComplete<Value: Sendable>(_ result: APIResult<Value>, context: RequestContext) {
        switch result {
        case .success(_, let metadata):
            guard level >= .info else { return }
            sink("✓ \(label(context)) succeeded in \(Int(metadata.elapsed * 1000)) ms")
        case .serverFailure(let failure):
            guard level >= .error else { return }
            sink("✗ \(label(context)) \(failure.description)")
        case .transportError(let error):
            guard level >= .error else { return }
            sink("✗ \(label(context)) \(error.reason): \(error.message)")
        }
    }

    private func label(_ context: RequestContext) -> String {
        "[#\(context.id) \(context.endpoint)\(context.attempt > 1 ? " attempt \(context.attempt)" : "")]"
    }

    private func describe(_ body: Data) -> String {
        let shown = body.prefix(bodyLimit)
        let more = body.count > bodyLimit ? " … (\(body.count) bytes)" : ""
        guard let text = String(data: shown, encoding: .utf8) else { return "<\(body.count) bytes of binary data>" }
        return text + more
    }
}
