#if os(Linux) && canImport(CCurlShim)
import CCurlShim
import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request of ``CurlTransport``: an easy handle, the response being received, and the
/// completion, called exactly once.
///
/// Threads: the handle and the response are touched by the thread that creates the transfer until
/// it is handed to the event loop, then only by the loop's thread. Only `isFinished` is shared,
/// so that a cancel from any thread completes at once and the loop drops the transfer later.
final class CurlTransfer: TransportTask, @unchecked Sendable {
    /// What happens after libcurl finished one hop.
    enum Step {
        case finish(Result<TransportResponse, TransportError>)
        case follow(URLRequest)
    }

    /// The easy handle and its error buffer, from the loop's pool.
    /// Its `options` are updated as the transfer sets them (CurlTransfer+Setup.swift).
    @exclusivity(unchecked) var handle: CurlEventLoop.Handle
    var easy: UnsafeMutableRawPointer { handle.easy }
    var errorBuffer: UnsafeMutablePointer<CChar> { handle.errorBuffer }
    let settings: CurlTransport.Settings
    /// The request as first sent, for the redirect policy.
    let original: URLRequest
    /// The request of the current hop.
    var request: URLRequest { didSet { url = request.url } }
    /// The URL of the current hop, read once: `URLRequest.url` copies it out of its storage.
    private(set) var url: URL?
    var headerList: UnsafeMutableRawPointer?
    /// The request's limits.
    let timeouts: Timeouts
    /// The total deadline in `DispatchTime` nanoseconds, if any.
    let deadline: UInt64?
    /// The idle limit in nanoseconds; 0 for none.
    let idleLimit: UInt64
    /// When a byte was last sent or received (or the hop started), in `DispatchTime` nanoseconds.
    @exclusivity(unchecked) var lastActivity: UInt64 = 0
    /// libcurl's byte counters at the last progress callback, to notice movement.
    var lastCounts: (received: Int64, sent: Int64) = (0, 0)
    let limit: Int
    let redirectPolicy: RedirectPolicy
    /// The request's own say over each redirect, if it has one.
    let redirectHandler: (@Sendable (Redirect) -> RedirectAction)?
    let download: DownloadTarget?
    let onProgress: (@Sendable (TransferProgress) -> Void)?
    /// Redirects followed so far.
    var redirectCount = 0
    /// The body of the current hop.
    var requestBody: CurlRequestBody
    /// The open file of a `.file` request body.
    var upload: CurlUploadFile?

    // The current hop's response, filled by the callbacks (CurlTransfer+Response.swift). Only the
    // loop's thread touches them, one callback at a time: no dynamic exclusivity checks on the
    // per-line and per-chunk paths.
    @exclusivity(unchecked) var head = CurlResponseHead()
    @exclusivity(unchecked) var response: ResponseHead?
    @exclusivity(unchecked) var writer: ResponseBodyWriter
    /// Decided when a redirect's head is complete: follow it (its body is dropped) or fail.
    @exclusivity(unchecked) var redirectStep: Step?
    /// Why receiving stopped, if it did.
    @exclusivity(unchecked) var receiveFailure: TransportError?
    @exclusivity(unchecked) var progress = TransferProgress()
    /// The body streamed to the request's sink (CurlTransfer+Streaming.swift), if it has one.
    let stream: CurlBodyStream?

    private var isReleased = false
    private let finished = Atomic(false)
    private let completion: @Sendable (Result<TransportResponse, TransportError>) -> Void
    private weak var loop: CurlEventLoop?

    /// - Parameter url: `request`'s URL, as the transport read it.
    init?(
        request: TransportRequest, url: URL, settings: CurlTransport.Settings, loop: CurlEventLoop,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) {
        guard let handle = loop.acquireHandle() else { return nil }
        self.handle = handle
        self.settings = settings
        self.request = request.urlRequest
        self.url = url
        original = request.urlRequest
        if let file = request.bodyFile {
            requestBody = .file(file)
        } else {
            requestBody = request.urlRequest.httpBody.map { .data($0) } ?? .none
        }
        limit = request.maximumResponseSize
        redirectPolicy = request.redirectPolicy
        redirectHandler = request.redirectHandler
        download = request.download
        stream = request.bodySink.map { CurlBodyStream(sink: $0, loop: loop) }
        onProgress = request.onProgress
        writer = ResponseBodyWriter(limit: request.maximumResponseSize, download: request.download)
        timeouts = request.timeouts
        deadline = request.timeouts.totalLimit.map {
            DispatchTime.now().uptimeNanoseconds + Timeouts.nanoseconds($0)
        }
        idleLimit = request.timeouts.idleLimit.map(Timeouts.nanoseconds) ?? 0
        self.completion = completion
        self.loop = loop
    }

    deinit { release() }

    /// Cancels the transfer: completes with `cancelled` now; the loop removes the handle next.
    func cancel() {
        if finish(.failure(.cancelled())) { loop?.discard(self) }
    }

    var isFinished: Bool { finished.load(ordering: .acquiring) }

    /// Completes unless already completed.
    /// - Returns: Whether this call completed the transfer.
    @discardableResult
    func finish(_ result: Result<TransportResponse, TransportError>) -> Bool {
        let won = finished.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        if won { completion(result) }
        return won
    }

    /// Gives the easy handle back to the loop's pool (or frees it) with its lists and files;
    /// idempotent. The handle must not be in a multi handle. A download file keeps what it
    /// received, for a later resume.
    func release() {
        guard !isReleased else { return }
        isReleased = true
        ek_curl_slist_free_all(headerList)
        headerList = nil
        upload?.close()
        writer.abandon()
        if let loop { loop.recycle(handle) } else { handle.free() }
    }

    /// Starts over for the next hop of a redirect.
    func prepareForNextHop(_ next: URLRequest) {
        redirectCount += 1
        if let body = next.httpBody, body != requestBody.data {
            // A body a redirect handler chose (a 307/308 resends the one the transfer has).
            requestBody = .data(body)
            upload?.close()
            upload = nil
        } else if next.httpBody == nil,
            requestBody.data != nil || next.httpMethod?.uppercased() != request.httpMethod?.uppercased()
        {
            // 301/302/303 turned the request into a GET, or a redirect handler dropped the body:
            // it is not sent again.
            requestBody = .none
            upload?.close()
            upload = nil
        }
        upload?.rewind()
        request = next
        head = CurlResponseHead()
        response = nil
        redirectStep = nil
        lastCounts = (0, 0)
        writer = ResponseBodyWriter(limit: limit, download: download)
        if !CurlLibrary.reusesHandlesSafely, let fresh = ek_curl_easy_init() {
            // The next hop on a new handle (see ``CurlLibrary/reusesHandlesSafely``).
            ek_curl_easy_cleanup(easy)
            handle = CurlEventLoop.Handle(easy: fresh, errorBuffer: handle.errorBuffer)
        } else {
            ek_curl_easy_reset(easy)
        }
        handle.options = .fresh
        ek_curl_slist_free_all(headerList)
        headerList = nil
        errorBuffer[0] = 0
    }
}
#endif
