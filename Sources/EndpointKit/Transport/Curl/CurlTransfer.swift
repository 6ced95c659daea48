#if canImport(CCurlShim)
import CCurlShim
import Dispatch
import Foundation

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

    let easy: UnsafeMutableRawPointer
    let settings: CurlTransport.Settings
    /// The request of the current hop.
    var request: URLRequest
    var headerList: UnsafeMutableRawPointer?
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: 256)
    /// The deadline in `DispatchTime` nanoseconds, if any.
    let deadline: UInt64?
    let limit: Int
    private(set) var redirectCount = 0

    /// The body of the current hop.
    var requestBody: CurlRequestBody
    /// The open file of a `.file` request body.
    var upload: CurlUploadFile?
    /// Told about progress on the loop thread; `nil` for none.
    let progress: (@Sendable (CurlProgress) -> Void)?
    private var lastProgress: CurlProgress?

    private var head = CurlResponseHead()
    private var responseBody: CurlResponseBody
    /// Where the response body goes.
    var destination: CurlResponseBody.Destination { responseBody.destination }
    private var isReleased = false
    private let finished = Locked(false)
    private let completion: @Sendable (Result<TransportResponse, TransportError>) -> Void
    private weak var loop: CurlEventLoop?

    init?(
        request: TransportRequest, body: CurlRequestBody?, destination: CurlResponseBody.Destination,
        progress: (@Sendable (CurlProgress) -> Void)?, settings: CurlTransport.Settings, loop: CurlEventLoop,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) {
        guard let easy = ek_curl_easy_init() else { return nil }
        self.easy = easy
        self.settings = settings
        self.request = request.urlRequest
        requestBody = body ?? request.urlRequest.httpBody.map { .data($0) } ?? .none
        responseBody = CurlResponseBody(destination: destination, limit: request.maximumResponseSize)
        self.progress = progress
        self.limit = request.maximumResponseSize
        self.deadline = request.deadline.map {
            DispatchTime.now().uptimeNanoseconds + UInt64(max(0, min($0, 1e9)) * 1e9)
        }
        self.completion = completion
        self.loop = loop
        errorBuffer.initialize(to: 0)
        loop.transferCreated()
    }

    deinit {
        release()
        errorBuffer.deallocate()
    }

    /// Cancels the transfer: completes with `cancelled` now; the loop removes the handle next.
    func cancel() {
        if finish(.failure(.cancelled())) { loop?.discard(self) }
    }

    var isFinished: Bool { finished.withLock { $0 } }

    /// Completes unless already completed.
    /// - Returns: Whether this call completed the transfer.
    @discardableResult
    func finish(_ result: Result<TransportResponse, TransportError>) -> Bool {
        let won = finished.withLock { isFinished in
            defer { isFinished = true }
            return !isFinished
        }
        if won { completion(result) }
        return won
    }

    /// Frees the easy handle and its lists; idempotent. The handle must not be in a multi handle.
    func release() {
        guard !isReleased else { return }
        isReleased = true
        ek_curl_easy_cleanup(easy)
        ek_curl_slist_free_all(headerList)
        headerList = nil
        upload?.close()
        responseBody.close()
        _ = responseBody.takeData()
        loop?.transferReleased()
    }

    /// Starts over for the next hop of a redirect.
    func prepareForNextHop(_ next: URLRequest) {
        redirectCount += 1
        if next.httpMethod != request.httpMethod {
            // 301/302/303 turned the request into a GET: the body is not sent again.
            requestBody = .none
            upload?.close()
            upload = nil
        }
        upload?.rewind()
        request = next
        head = CurlResponseHead()
        _ = responseBody.takeData()
        ek_curl_easy_reset(easy)
        ek_curl_slist_free_all(headerList)
        headerList = nil
        errorBuffer[0] = 0
    }

    /// Decides what comes after libcurl reported `code` for the current hop.
    func step(after code: Int32) -> Step {
        if let failure = responseBody.failure { return .finish(.failure(failure)) }
        guard code == 0 else {
            if code == 63 {  // CURLE_FILESIZE_EXCEEDED: a Content-Length over the cap.
                return .finish(.failure(tooLarge()))
            }
            let error = CurlError(
                code: Int(code), summary: CurlLibrary.describe(code), detail: String(cString: errorBuffer))
            return .finish(.failure(TransportError(curlError: error, url: request.url)))
        }
        var status = 0
        _ = ek_curl_easy_getinfo_long(easy, CurlOption.Info.responseCode, &status)
        let fields = head.dictionary
        if let storage = settings.cookieStorage, let url = request.url, fields.keys.contains(where: Self.isSetCookie) {
            storage.setCookies(
                HTTPCookie.cookies(withResponseHeaderFields: fields, for: url), for: url, mainDocumentURL: nil)
        }
        do {
            if let next = try HTTPRedirect.request(
                after: request, status: status, location: head.value(for: "Location"))
            {
                guard redirectCount < settings.maximumRedirects else {
                    return .finish(
                        .failure(
                            TransportError(
                                .tooManyRedirects,
                                message:
                                    "More than \(settings.maximumRedirects) redirects (\(request.url?.redactedForMessages ?? ""))."
                            )))
                }
                return .follow(next)
            }
        } catch {
            return .finish(.failure(error))
        }
        guard let url = request.url,
            let response = HTTPURLResponse(
                url: url, statusCode: status, httpVersion: httpVersion(), headerFields: fields)
        else {
            return .finish(
                .failure(TransportError(.badResponse, message: "The response has no valid status (\(status)).")))
        }
        responseBody.close()
        return .finish(.success(TransportResponse(response: response, data: responseBody.takeData())))
    }

    /// Header callback: one line of the head.
    func receive(headerLine line: UnsafeRawBufferPointer) -> Int {
        if head.consume(line), head.statusCode >= 200 {
            let followsRedirect =
                HTTPRedirect.statuses.contains(head.statusCode) && head.value(for: "Location") != nil
                && redirectCount < settings.maximumRedirects
            responseBody.begin(head, followsRedirect: followsRedirect)
        }
        return line.count
    }

    /// Write callback: body bytes; returning less than given aborts the transfer.
    func receive(body bytes: UnsafeRawBufferPointer) -> Int {
        responseBody.append(bytes) ? bytes.count : 0
    }

    /// Read callback: the next part of a file body.
    func send(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        upload?.read(into: buffer) ?? 0
    }

    /// Transfer-info callback: passes changes on to `progress`.
    func report(_ current: CurlProgress) {
        guard current != lastProgress else { return }
        lastProgress = current
        progress?(current)
    }

    private static func isSetCookie(_ name: String) -> Bool {
        name.utf8.count == 10 && name.lowercased() == "set-cookie"
    }

    private func httpVersion() -> String {
        var version = 0
        _ = ek_curl_easy_getinfo_long(easy, CurlOption.Info.httpVersion, &version)
        switch version {
        case 1: return "HTTP/1.0"
        case 3: return "HTTP/2"
        case 30: return "HTTP/3"
        default: return "HTTP/1.1"
        }
    }

    private func tooLarge() -> TransportError {
        TransportError(.responseTooLarge(limit: limit), message: "The response body is larger than \(limit) bytes.")
    }
}
#endif
