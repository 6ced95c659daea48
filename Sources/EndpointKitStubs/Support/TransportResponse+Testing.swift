@_spi(Internal) import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TransportResponse {
    /// Builds the answer a test double hands back, doing what a real transport does with it:
    /// reports progress (the whole request body sent, then the whole response body received),
    /// writes a 2xx body to the request's download file (appending for a `206` that continues at
    /// the resume offset), and otherwise applies the in-memory size cap.
    /// - Parameter reportsProgress: `false` when a real transport already reported it.
    static func make(
        for request: TransportRequest, status: Int, headers: [String: String], body: Data,
        reportsProgress: Bool = true
    ) -> Result<TransportResponse, TransportError> {
        let label = request.urlRequest.label
        var headers = headers
        if !headers.keys.contains(where: { $0.caseInsensitiveCompare("Content-Length") == .orderedSame }) {
            headers["Content-Length"] = String(body.count)
        }
        guard let url = request.urlRequest.url,
            let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
        else {
            return .failure(TransportError(.badResponse, message: "Could not build a response for \(label)."))
        }
        let sent = CapturedBody(request).size
        var progress = TransferProgress(bytesSent: sent, totalBytesToSend: sent > 0 ? sent : nil)
        if reportsProgress, sent > 0 { request.onProgress?(progress) }

        if let download = request.download, (200..<300).contains(status) {
            let received: Int64
            do {
                received = try write(body, of: response, to: download)
            } catch {
                return .failure(error)
            }
            progress.bytesReceived = received
            progress.totalBytesToReceive = received
            if reportsProgress { request.onProgress?(progress) }
            return .success(TransportResponse(response: response, data: Data(), fileURL: download.fileURL))
        }
        guard body.count <= request.maximumResponseSize else {
            return .failure(
                TransportError(
                    .responseTooLarge(limit: request.maximumResponseSize),
                    message: "The response to \(label) is larger than \(request.maximumResponseSize) bytes."))
        }
        progress.bytesReceived = Int64(body.count)
        progress.totalBytesToReceive = Int64(body.count)
        if reportsProgress { request.onProgress?(progress) }
        return .success(TransportResponse(response: response, data: body))
    }

    /// Writes a download body as ``/EndpointKit/URLSessionTransport`` would; returns the bytes the file holds.
    private static func write(
        _ body: Data, of response: HTTPURLResponse, to download: DownloadTarget
    ) throws(TransportError) -> Int64 {
        let resuming = response.statusCode == 206 && download.resumeOffset > 0
        if response.statusCode == 206, !resuming || rangeStart(of: response) != download.resumeOffset {
            throw TransportError(.badResponse, message: "The server answered a range that was not asked for.")
        }
        download.onResponse?(response)
        let url = download.fileURL
        do {
            if resuming {
                let handle = try FileHandle(forWritingTo: url)
                defer { try? handle.close() }
                try handle.truncate(atOffset: UInt64(download.resumeOffset))
                try handle.seekToEnd()
                try handle.write(contentsOf: body)
                return download.resumeOffset + Int64(body.count)
            }
            try body.write(to: url)
            return Int64(body.count)
        } catch {
            throw TransportError(
                .localFileError, message: "Cannot write the download to \(url.path): \(error)", underlyingError: error)
        }
    }

    /// The first byte of `Content-Range: bytes 100-199/200`.
    private static func rangeStart(of response: HTTPURLResponse) -> Int64? {
        guard let range = response.value(forHTTPHeaderField: "Content-Range"), range.hasPrefix("bytes ") else {
            return nil
        }
        return Int64(range.dropFirst(6).prefix { $0 != "-" })
    }
}

extension URLRequest {
    /// `METHOD URL`, to name a request in messages.
    var label: String { "\(httpMethod ?? "GET") \(url?.absoluteString ?? "<no URL>")" }
}
