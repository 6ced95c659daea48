import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The metrics of a ``SessionTransfer``: what URLSession delivered (`didFinishCollecting`, Apple
/// platforms), or else the transfer's own clock.
///
/// URLSession on Linux never delivers task metrics, so there the transfer measures what its
/// delegate callbacks show: the response head's arrival and the end of the exchange, counted from
/// the start of the exchange's task (or from the redirect URLSession followed).
struct SessionMetricsClock {
    private var exchangeStart = DispatchTime.now().uptimeNanoseconds
    private var responseStart: UInt64?
    /// The metrics URLSession delivered for the current task.
    var collected: TransferMetrics?

    /// A new exchange begins: a task started, or URLSession follows a redirect.
    mutating func exchangeStarted() {
        exchangeStart = DispatchTime.now().uptimeNanoseconds
        responseStart = nil
        collected = nil
    }

    /// The response head arrived.
    mutating func responseStarted() {
        responseStart = DispatchTime.now().uptimeNanoseconds
    }

    /// The metrics of the exchange that just ended.
    func metrics(redirectCount: Int) -> TransferMetrics {
        if let collected {
            return collected.redirectCount >= redirectCount ? collected : collected.withRedirectCount(redirectCount)
        }
        let start = exchangeStart
        func seconds(_ time: UInt64) -> TimeInterval { Double(time &- start) / 1e9 }
        return TransferMetrics(
            responseStart: responseStart.map(seconds), responseEnd: seconds(DispatchTime.now().uptimeNanoseconds),
            redirectCount: redirectCount)
    }
}

extension TransferMetrics {
    /// The last transaction of URLSession's task metrics (the one that produced the response),
    /// in seconds from its fetch start. Apple platforms only: URLSession on Linux never delivers
    /// task metrics (this compiles there but is not called).
    init?(_ metrics: URLSessionTaskMetrics) {
        guard let last = metrics.transactionMetrics.last else { return nil }
        let start = last.fetchStartDate
        func offset(_ date: Date?) -> TimeInterval? {
            guard let start, let date else { return nil }
            return max(0, date.timeIntervalSince(start))
        }
        #if canImport(FoundationNetworking)
        let port = last.remotePort.flatMap { Int($0) }  // FoundationNetworking declares it a String.
        #else
        let port = last.remotePort
        #endif
        self.init(
            domainLookupEnd: offset(last.domainLookupEndDate), connectEnd: offset(last.connectEndDate),
            secureConnectionEnd: offset(last.secureConnectionEndDate), responseStart: offset(last.responseStartDate),
            responseEnd: offset(last.responseEndDate),
            requestBodyBytesSent: last.countOfRequestBodyBytesSent,
            responseBodyBytesReceived: last.countOfResponseBodyBytesReceived,
            isReusedConnection: last.isReusedConnection, httpVersion: Self.httpVersion(last.networkProtocolName),
            remoteAddress: last.remoteAddress, remotePort: port, redirectCount: metrics.redirectCount)
    }

    /// `HTTP/1.1`, `HTTP/2`, `HTTP/3` for an ALPN protocol name (`http/1.1`, `h2`, `h3`).
    private static func httpVersion(_ protocolName: String?) -> String? {
        switch protocolName?.lowercased() {
        case nil: return nil
        case "h2": return "HTTP/2"
        case "h3", "h3-29": return "HTTP/3"
        case let name?: return name.uppercased()
        }
    }
}

extension SessionDelegate {
    /// Apple platforms: URLSession's metrics of a task, delivered before its completion.
    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        guard let collected = TransferMetrics(metrics) else { return }
        transfer(for: task)?.didCollect(collected)
    }
}
