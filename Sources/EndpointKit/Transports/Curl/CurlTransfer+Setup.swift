#if os(Linux) && canImport(CCurlShim)
import CCurlShim
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension CurlTransfer {
    /// Sets the easy handle's options for the current hop.
    /// - Returns: An error if the hop cannot start (deadline passed, option refused).
    func configure() -> TransportError? {
        guard let address = url?.absoluteString else {
            return TransportError(.unsupportedURL, message: "The request has no URL.")
        }
        var remaining = Int.max
        let now = DispatchTime.now().uptimeNanoseconds
        lastActivity = now
        if let deadline {
            guard deadline > now else { return .timedOut(.total, after: timeouts.totalLimit, url: url) }
            remaining = max(1, Int((deadline - now) / 1_000_000))
        }
        let https = Self.startsWithScheme(address, "https")
        let identity = https ? settings.clientCertificates.value(forHost: url?.host) : nil
        let kind = plainGetKind(https: https, identity: identity)
        let reuses = kind != nil && handle.options == kind
        if !reuses, handle.options != .fresh { ek_curl_easy_reset(easy) }
        // Until every option is set, the handle's options are unknown.
        handle.options = .unknown
        var options = CurlOptionSetter(easy: easy)
        options.set(CurlOption.url, address)
        if !reuses {
            // What every request sets the same way: kept on the handle from one plain GET to the next.
            options.set(CurlOption.noSignal, 1)
            options.set(CurlOption.protocols, CurlOption.Value.protocolsHTTPAndHTTPS)
            options.set(CurlOption.redirectProtocols, CurlOption.Value.protocolsHTTPAndHTTPS)
            options.set(CurlOption.acceptEncoding, "")
            options.set(CurlOption.httpVersion, CurlOption.Value.http2OverTLS)
            options.set(CurlOption.errorBuffer, UnsafeRawPointer(errorBuffer))
        }
        if download == nil, stream == nil { options.set(CurlOption.maxFileSizeLarge, Int64(limit)) }
        // Both limits every time (0 is libcurl's "none"), so a reused handle keeps no old limit.
        let total = remaining == Int.max ? 0 : remaining
        options.set(CurlOption.timeoutMilliseconds, total)
        // Without a connect limit of its own, libcurl's default (300 s) or the total deadline applies.
        if let connect = timeouts.connectLimit {
            options.set(CurlOption.connectTimeoutMilliseconds, min(remaining, max(1, Int(min(connect, 86_400) * 1000))))
        } else {
            options.set(CurlOption.connectTimeoutMilliseconds, total)
        }
        installCallbacks(&options, reuses: reuses)
        if !reuses, let error = configureMethodAndBody(&options) { return error }
        if let error = configureHeaders(&options, https: https) { return error }
        if https, !reuses {
            options.set(CurlOption.pipeWait, 1)
            if options.failure == 0 { options.failure = settings.trust.apply(to: easy) }
            if options.failure == 0, let identity { options.failure = identity.apply(to: easy) }
        }
        guard options.failure == 0 else {
            return TransportError(
                .other, message: "libcurl refused an option: \(CurlLibrary.describe(options.failure)).",
                underlyingError: CurlError(
                    code: Int(options.failure), summary: CurlLibrary.describe(options.failure), detail: ""))
        }
        handle.options = kind ?? .unknown
        return nil
    }

    /// Whether `address` (an absolute URL's string) is an http or https URL.
    static func isHTTPOrHTTPS(_ address: String) -> Bool {
        startsWithScheme(address, "http") || startsWithScheme(address, "https")
    }

    /// Whether `address` starts with `scheme` (ASCII, lowercase; in any case in `address`) and a
    /// colon: an absolute URL's string starts with its scheme, so this is `url.scheme` compared
    /// without parsing it again.
    static func startsWithScheme(_ address: String, _ scheme: StaticString) -> Bool {
        var address = address
        return address.withUTF8 { bytes in
            let count = scheme.utf8CodeUnitCount
            guard bytes.count > count, bytes[count] == UInt8(ascii: ":") else { return false }
            for index in 0..<count where bytes[index] | 0x20 != scheme.utf8Start[index] { return false }
            return true
        }
    }

    /// The kind of a plain GET (see ``CurlEventLoop/Handle/Options``) if this hop is one: no body,
    /// no download file, no stream, no client certificate.
    private func plainGetKind(https: Bool, identity: CurlClientCertificate?) -> CurlEventLoop.Handle.Options? {
        guard case .none = requestBody, download == nil, stream == nil, identity == nil else { return nil }
        guard (request.httpMethod ?? "GET").caseInsensitiveEquals("GET") else { return nil }
        return .plainGet(https: https)
    }

    /// The callbacks and this transfer as their context; on a `reused` handle the callbacks are
    /// already set (they are the same functions for every transfer).
    private func installCallbacks(_ options: inout CurlOptionSetter, reuses: Bool) {
        let context = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        options.set(CurlOption.privateData, context)
        options.set(CurlOption.writeData, context)
        options.set(CurlOption.headerData, context)
        if reuses { return }
        options.setCallback(CurlOption.writeFunction) { data, size, count, context in
            guard let context else { return 0 }
            // The loop holds the transfer while libcurl calls back: no retain and release per call.
            return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef {
                $0.receive(body: UnsafeRawBufferPointer(start: data, count: size * count))
            }
        }
        options.setCallback(CurlOption.headerFunction) { data, size, count, context in
            guard let context else { return 0 }
            return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef {
                $0.receive(headerLine: UnsafeRawBufferPointer(start: data, count: size * count))
            }
        }
        // Download progress is reported as bytes are written; libcurl's counter serves uploads.
        guard onProgress != nil, requestBody.hasBytes else { return }
        options.set(CurlOption.noProgress, 0)
        options.set(CurlOption.progressData, context)
        options.setProgressCallback { context, _, _, uploadTotal, uploadNow in
            guard let context else { return 0 }
            Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().reportSent(uploadNow, of: uploadTotal)
            return 0
        }
    }

    private func configureMethodAndBody(_ options: inout CurlOptionSetter) -> TransportError? {
        let given = request.httpMethod ?? "GET"
        guard given == "GET" || HeaderFieldRules.isToken(given) else {
            return HeaderFieldRules.refusal(of: request)
        }
        let method = given == "GET" ? given : given.uppercased()
        switch (method, requestBody) {
        case ("GET", .none):
            options.set(CurlOption.httpGet, 1)
        case ("HEAD", _):
            options.set(CurlOption.noBody, 1)
        case (_, .file(let url)):
            if upload == nil {
                do {
                    upload = try CurlUploadFile(url)
                } catch {
                    return error
                }
            }
            let length = upload?.length ?? 0
            options.set(CurlOption.readData, UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()))
            options.setCallback(CurlOption.readFunction) { buffer, size, count, context in
                guard let context else { return 0x1000_0000 }  // CURL_READFUNC_ABORT
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.send(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
            }
            if method == "POST" {
                options.set(CurlOption.post, 1)
                options.set(CurlOption.postFieldSizeLarge, length)
            } else {
                options.set(CurlOption.upload, 1)
                options.set(CurlOption.inFileSizeLarge, length)
                if method != "PUT" { options.set(CurlOption.customRequest, method) }
            }
        case ("POST", _), ("PUT", _), ("PATCH", _):
            setBody(requestBody.data ?? Data(), &options)
            if method != "POST" { options.set(CurlOption.customRequest, method) }
        default:
            if let data = requestBody.data { setBody(data, &options) }
            options.set(CurlOption.customRequest, method)
        }
        return nil
    }

    private func setBody(_ body: Data, _ options: inout CurlOptionSetter) {
        options.set(CurlOption.postFieldSizeLarge, Int64(body.count))
        // COPYPOSTFIELDS: libcurl keeps its own copy, so the Data need not outlive this call.
        body.withUnsafeBytes { bytes in
            options.set(
                CurlOption.copyPostFields, bytes.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start))
        }
    }

    /// Builds the header list; the last check before the head is written: a field that could
    /// inject (see ``HeaderFieldRules``) fails the hop and nothing is sent.
    /// - Parameter https: Whether this hop's URL is `https` (which `Secure` cookies need).
    private func configureHeaders(_ options: inout CurlOptionSetter, https: Bool) -> TransportError? {
        var list: UnsafeMutableRawPointer?
        let fields = request.allHTTPHeaderFields ?? [:]
        for (name, value) in fields {
            do throws(RequestBuildError) {
                try HeaderFieldRules.check(name: name, value: value)
            } catch {
                ek_curl_slist_free_all(list)
                return TransportError(.requestBuildFailed, message: error.description, underlyingError: error)
            }
            // "Name;" is libcurl's syntax for a header with an empty value.
            list = ek_curl_slist_append(list, value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        func has(_ name: String) -> Bool { fields.keys.contains { $0.caseInsensitiveEquals(name) } }
        let hasContentType = has("content-type")
        // A request that carries its own Cookie header manages cookies itself, on every hop (the
        // redirect policy may have dropped that header on the way to another origin).
        var cookieHeader: String?
        // On the first hop `original` is `request`, whose fields were just read.
        if let storage = settings.cookieStorage, let url, !has("cookie"),
            redirectCount == 0 || original.value(forHTTPHeaderField: "Cookie") == nil
        {
            cookieHeader = StoredCookies.header(for: url, overHTTPS: https, from: storage)
        }
        // Only the transport's own lines (a plain GET, the usual case): its list, made once.
        if fields.isEmpty, cookieHeader == nil, !requestBody.hasBytes {
            headerList = nil
            options.set(CurlOption.httpHeader, UnsafeRawPointer(settings.defaultHeaderList.pointer))
            return nil
        }
        for header in settings.defaultHeaders where !has(header.name) {
            list = ek_curl_slist_append(list, header.line)
        }
        if let cookieHeader { list = ek_curl_slist_append(list, "Cookie: \(cookieHeader)") }
        // No `Expect: 100-continue` round trip; no form content type the request did not ask for.
        if requestBody.hasBytes {
            list = ek_curl_slist_append(list, "Expect:")
            if !hasContentType { list = ek_curl_slist_append(list, "Content-Type:") }
        }
        headerList = list
        options.set(CurlOption.httpHeader, UnsafeRawPointer(list))
        return nil
    }
}
#endif
