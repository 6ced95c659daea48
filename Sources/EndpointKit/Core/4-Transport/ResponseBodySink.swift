import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Takes a response body piece by piece as it arrives, instead of the transport collecting it
/// (``TransportRequest/bodySink``), and holds the transfer back when it cannot take more.
///
/// A transport that honours the sink calls ``begin(_:resume:)`` when the final response head is
/// complete. If the sink accepts the response, every body byte goes to ``receive(_:)`` and the
/// transport completes with an empty ``TransportResponse/data``; otherwise the body is collected
/// as usual (under the size cap), so that an error body still reaches the caller whole.
///
/// Back-pressure: when ``receive(_:)`` returns `false` the bytes were not taken. The transport
/// stops reading (libcurl pauses the transfer, URLSession on Apple platforms suspends the task)
/// and offers the same bytes again, first, after the sink calls `resume`. While paused, the
/// transfer's idle limit does not run: the wait is the reader's, not the network's.
///
/// ```swift
/// final class ByteCounter: ResponseBodySink, @unchecked Sendable {
///     private let lock = NSLock()
///     private var total = 0
///     func begin(_ response: HTTPURLResponse, resume: @escaping @Sendable () -> Void) -> Bool {
///         (200..<300).contains(response.statusCode)      // an error body is collected as usual
///     }
///     func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
///         lock.withLock { total += bytes.count }
///         return true
///     }
/// }
/// ```
///
/// Calls come from the transport's thread, one at a time and in order; `resume` may be called
/// from any thread, at any time (it does nothing once the transfer ended). A transport that cannot
/// pause (URLSession on Linux, whose `suspend()` restarts the request) keeps what the sink refused
/// and fails the transfer with ``TransportError/Reason/responseTooLarge(limit:)`` once that
/// backlog passes ``TransportRequest/maximumResponseSize``. A transport that ignores the sink
/// collects the body: ``APIClient``'s streaming requests then get their elements at the end.
package protocol ResponseBodySink: Sendable {
    /// The final response head arrived (after redirects).
    /// - Parameters:
    ///   - response: The response whose body follows.
    ///   - resume: Asks the transport to read again after ``receive(_:)`` returned `false`.
    /// - Returns: Whether the body goes to ``receive(_:)``; `false` collects it as usual.
    func begin(_ response: HTTPURLResponse, resume: @escaping @Sendable () -> Void) -> Bool

    /// The next body bytes, valid only during the call.
    /// - Returns: `false` if the bytes were not taken: the transfer pauses and the same bytes are
    ///   offered again after `resume`.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool
}
