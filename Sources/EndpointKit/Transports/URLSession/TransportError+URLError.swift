import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TransportError {
    /// Classifies an error from URLSession.
    ///
    /// On Linux a TLS failure arrives as error `-1` ("SSL certificate problem: ...") rather than
    /// one of the `-12xx` codes, so an unknown error on an `https` URL whose text mentions SSL,
    /// TLS or a certificate is classified as ``Reason/tls``.
    /// - Parameters:
    ///   - error: The error URLSession reported.
    ///   - url: The URL that was requested.
    package init(urlSessionError error: any Error, url: URL?) {
        let urlError = error as? URLError
        let nsError = error as NSError
        let text = nsError.localizedDescription
        var reason: Reason
        switch urlError?.code {
        case .timedOut?: reason = .timedOut
        case .notConnectedToInternet?, .dataNotAllowed?, .internationalRoamingOff?, .callIsActive?:
            reason = .notConnected
        case .cannotConnectToHost?: reason = .cannotConnect
        case .cannotFindHost?, .dnsLookupFailed?: reason = .cannotFindHost
        case .networkConnectionLost?: reason = .connectionLost
        case .cancelled?, .userCancelledAuthentication?: reason = .cancelled
        case .secureConnectionFailed?, .serverCertificateHasBadDate?, .serverCertificateUntrusted?,
            .serverCertificateHasUnknownRoot?, .serverCertificateNotYetValid?, .clientCertificateRejected?,
            .clientCertificateRequired?:
            reason = .tls
        case .httpTooManyRedirects?, .redirectToNonExistentLocation?: reason = .tooManyRedirects
        case .badServerResponse? where text.lowercased().contains("empty reply from server"):
            // libcurl's "closed before any byte of a response" (CURLE_GOT_NOTHING), which
            // FoundationNetworking reports as -1011.
            reason = .connectionLost
        case .badServerResponse?, .cannotParseResponse?, .cannotDecodeRawData?, .cannotDecodeContentData?,
            .zeroByteResource?:
            reason = .badResponse
        case .unsupportedURL?, .badURL?:
            reason = Self.classifyUnsupported(urlError?.code, text: text.lowercased(), url: url)
        default:
            reason = Self.classifyCurlText(text.lowercased(), isHTTPS: url?.scheme?.lowercased() == "https")
        }
        var message = Self.message(for: reason, detail: "\(text) [\(nsError.domain) \(nsError.code)]", url: url)
        if reason == .cannotConnect, urlError?.code == .badURL {
            let target = url?.redactedForMessages ?? "<url>"
            message =
                "Could not connect to the server (\(target)): URLSession on Linux cannot connect to an "
                + "IPv6 address literal; use CurlTransport or a host name."
        }
        self.init(reason, message: message, underlyingError: error)
    }

    /// `unsupportedURL` and `badURL` on an http(s) URL stand for other things on Linux, told apart
    /// here so that the reason is the one libcurl gives for the same request. `unsupportedURL` is
    /// libcurl's unsupported protocol: a reply that is not HTTP ("Received HTTP/0.9", "Unsupported
    /// response code in HTTP response"), a bad response; only a location in another scheme is an
    /// unsupported URL, and the transfer refuses those before URLSession sees them. `badURL` is
    /// FoundationNetworking refusing a host that is an IPv6 literal before connecting: it could
    /// not connect.
    private static func classifyUnsupported(_ code: URLError.Code?, text: String, url: URL?) -> Reason {
        guard let scheme = url?.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return .unsupportedURL
        }
        if code == .badURL { return url?.host?.contains(":") == true ? .cannotConnect : .unsupportedURL }
        if text.contains("protocol \""), text.contains("not supported") { return .unsupportedURL }
        return .badResponse
    }

    /// On Linux, FoundationNetworking passes many libcurl failures through as error `-1` with
    /// libcurl's text; classify them by that text.
    private static func classifyCurlText(_ text: String, isHTTPS: Bool) -> Reason {
        if isHTTPS, ["ssl", "tls", "certificate"].contains(where: text.contains) { return .tls }
        // "Connection died, tried 5 times before giving up": libcurl resent a request on fresh
        // connections that the server kept closing without an answer (CURLE_SEND_ERROR).
        if [
            "transfer closed", "recv failure", "connection reset", "empty reply from server", "send failure",
            "connection died",
        ].contains(where: text.contains) {
            return .connectionLost
        }
        // A response that is not HTTP: an oversized head (one header line over libcurl's 100 KB,
        // "out of memory", or all of them over 300 KB, "too large response headers"), a NUL byte or
        // a space in a header line (FoundationNetworking's own parser refuses the line: "Failed
        // writing header"), a first field line that starts with a space ("bad argument"), a chunk
        // size that is not hexadecimal or too long, as libcurl's transfer reports them (CURLcode
        // 8, 43, 56; see TransportError+CurlCode.swift).
        if [
            "weird server reply", "http/0.9", "unsupported http version", "invalid status line", "header overflow",
            "too large response headers", "out of memory", "nul byte in header", "failed writing header",
            "in chunked-encoding", "a libcurl function was given a bad argument",
        ].contains(where: text.contains) {
            return .badResponse
        }
        return .other
    }

    private static func message(for reason: Reason, detail: String, url: URL?) -> String {
        let target = url.map { " (\($0.redactedForMessages))" } ?? ""
        switch reason {
        case .notConnected: return "The device is not connected to the internet\(target)."
        case .cannotConnect: return "Could not connect to the server\(target)."
        case .cannotFindHost: return "The server's host name could not be resolved\(target)."
        case .connectionLost: return "The connection was lost before the response was complete\(target)."
        case .cancelled: return "The request was cancelled\(target)."
        case .tls: return "The secure connection failed: \(detail)\(target)"
        case .tooManyRedirects: return "Too many redirects\(target)."
        case .timedOut: return "No byte was sent or received for too long (the idle timeout)\(target)."
        case .badResponse: return "The server's response could not be read: \(detail)\(target)"
        case .unsupportedURL: return "The URL is not supported\(target)."
        default: return "\(detail)\(target)"
        }
    }
}

extension URL {
    /// The URL without user info, query and fragment, safe to put in messages and logs.
    var redactedForMessages: String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return "<url>" }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? "<url>"
    }
}
