#if os(Linux) && canImport(CCurlShim)
import CCurlShim
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receiving: the callbacks libcurl calls on the loop thread, and what a finished hop leads to.
extension CurlTransfer {
    /// Header callback: one line of the head. When the final head is complete, the redirect policy
    /// is asked (a followed redirect's body is dropped) or the body writer is set up.
    func receive(headerLine line: UnsafeRawBufferPointer) -> Int {
        guard head.consume(line), head.statusCode >= 200, receiveFailure == nil else { return line.count }
        storeCookies()
        do throws(TransportError) {
            if head.hasMalformedField {
                throw HTTPFraming.malformedResponse("a field name holds a space or tab", url: url)
            }
            if let conflict = HTTPFraming.contentLengthConflict(in: head.value(for: "Content-Length"), url: url) {
                // Aborting the transfer closes the connection: it is not reused (RFC 9112 §6.3).
                throw conflict
            }
            if HTTPRedirect.redirects(head.statusCode),
                let proposed = try HTTPRedirect.proposedRequest(
                    after: request, status: head.statusCode, location: head.value(for: "Location"))
            {
                // The redirect's HTTPURLResponse is made only for a handler that asks for it.
                let decision = redirectPolicy.decide(
                    original: original, status: head.statusCode, proposed: proposed, count: redirectCount + 1,
                    handler: redirectHandler, head: try? makeResponse())
                switch decision {
                case .follow(let next):
                    redirectStep = .follow(next)
                    return line.count
                case .fail(let reason, let message):
                    redirectStep = .finish(.failure(TransportError(reason, message: message)))
                    return 0
                case .stop:
                    break
                }
            }
            let response = try makeResponse()
            lastActivity = DispatchTime.now().uptimeNanoseconds
            if !openStream(response) { try writer.begin(response) }
            self.response = response
            progress.bytesReceived = writer.received
            progress.totalBytesToReceive = writer.expectedTotal
            onProgress?(progress)
        } catch {
            receiveFailure = error
            return 0
        }
        return line.count
    }

    /// Write callback: body bytes; returning less than given aborts the transfer.
    func receive(body bytes: UnsafeRawBufferPointer) -> Int {
        if case .follow = redirectStep { return bytes.count }
        guard receiveFailure == nil else { return 0 }
        guard !bytes.isEmpty else { return 0 }
        if let stream, stream.isOpen { return deliver(bytes, to: stream) }
        do throws(TransportError) {
            try writer.append(bytes)
        } catch {
            receiveFailure = error
            return 0
        }
        if let onProgress {
            progress.bytesReceived = writer.received
            onProgress(progress)
        }
        return bytes.count
    }

    /// Read callback: the next part of a file body.
    func send(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        upload?.read(into: buffer) ?? 0
    }

    /// Transfer-info callback: upload progress (download progress is reported as bytes are written).
    func reportSent(_ sent: Int64, of totalToSend: Int64) {
        guard sent > progress.bytesSent, let onProgress else { return }
        progress.bytesSent = sent
        progress.totalBytesToSend = totalToSend > 0 ? totalToSend : nil
        onProgress(progress)
    }

    /// The idle limit, a stall detector on libcurl's byte counters: the event loop asks every
    /// transfer about four times a second (and never in between, so a transfer that moves costs
    /// nothing). `nil` while bytes move or the limit has not run out.
    func idleFailure(at now: UInt64) -> TransportError? {
        guard idleLimit > 0, stream?.isPaused != true else { return nil }
        var received: Int64 = 0
        var sent: Int64 = 0
        _ = ek_curl_easy_getinfo_off(easy, CurlOption.Info.sizeDownload, &received)
        _ = ek_curl_easy_getinfo_off(easy, CurlOption.Info.sizeUpload, &sent)
        if received != lastCounts.received || sent != lastCounts.sent {
            lastCounts = (received, sent)
            lastActivity = now
            return nil
        }
        guard now &- lastActivity >= idleLimit else { return nil }
        return .timedOut(.idle, after: timeouts.idleLimit, url: url)
    }

    /// Decides what comes after libcurl reported `code` for the current hop.
    func step(after code: Int32) -> Step {
        if let redirectStep { return redirectStep }
        if let receiveFailure { return .finish(.failure(receiveFailure)) }
        guard code == 0 else {
            if code == 28 { return .finish(.failure(timeoutError())) }
            if code == 43, head.statusCode != 0 {
                // libcurl's header store refuses a first field line that starts with a space or
                // tab (obsolete line folding with nothing to fold into); URLSession fails the same.
                return .finish(
                    .failure(HTTPFraming.malformedResponse("a field line starts with a space or tab", url: url)))
            }
            if code == 63 {  // CURLE_FILESIZE_EXCEEDED: a Content-Length over the cap.
                return .finish(
                    .failure(
                        TransportError(
                            .responseTooLarge(limit: limit), message: "The response body is larger than \(limit) bytes."
                        )
                    ))
            }
            let error = CurlError(
                code: Int(code), summary: CurlLibrary.describe(code), detail: String(cString: errorBuffer))
            return .finish(.failure(TransportError(curlError: error, url: url)))
        }
        do throws(TransportError) {
            let response = try finalResponse()
            let body = try writer.finish()
            response.metrics = metrics()
            return .finish(.success(TransportResponse(head: response, data: body.data, fileURL: body.fileURL)))
        } catch {
            return .finish(.failure(error))
        }
    }

    /// Which of libcurl's two timers ended the hop (the idle limit is this transfer's own): the
    /// total deadline once it has passed, otherwise the connect limit.
    private func timeoutError() -> TransportError {
        if let deadline, DispatchTime.now().uptimeNanoseconds + 50_000_000 >= deadline {
            return .timedOut(.total, after: timeouts.totalLimit, url: url)
        }
        return .timedOut(.connect, after: timeouts.connectLimit, url: url)
    }

    /// The response made when the head ended, or made now (a head libcurl ended without a body).
    ///
    /// libcurl also reports success when the server closed the connection cleanly in the middle
    /// of the head (after a whole line): that is a lost connection, not a response.
    private func finalResponse() throws(TransportError) -> ResponseHead {
        if let response { return response }
        guard head.isComplete else {
            let target = url.map { " (\($0.redactedForMessages))" } ?? ""
            throw TransportError(
                .connectionLost, message: "The connection closed before the response's headers were complete\(target).")
        }
        return try makeResponse()
    }

    private func makeResponse() throws(TransportError) -> ResponseHead {
        guard let url,
            let response = ResponseHead(
                url: url, statusCode: head.statusCode, httpVersion: httpVersion(), lines: head.lines)
        else {
            throw TransportError(.badResponse, message: "The response has no valid status (\(head.statusCode)).")
        }
        return response
    }

    /// Saves the head's `Set-Cookie` fields within the storage's limits (see
    /// ``StoredCookies/store(_:from:in:)``), also those of a redirect (a login often sets its
    /// session cookie on the 302).
    private func storeCookies() {
        guard let storage = settings.cookieStorage, let url,
            head.lines.hasSetCookie
        else { return }
        let fields = head.fields.filter { $0.name.caseInsensitiveEquals("set-cookie") }.map(\.value)
        StoredCookies.store(fields, from: url, in: storage)
    }

    private func httpVersion() -> String {
        var version = 0
        _ = ek_curl_easy_getinfo_long(easy, CurlOption.Info.httpVersion, &version)
        return Self.httpVersionName(version)
    }
}
#endif
