#if os(Linux) && canImport(CCurlShim)
import Foundation

extension TransportError {
    /// Classifies a failed libcurl transfer by its `CURLcode`.
    /// - Parameters:
    ///   - error: The code and libcurl's texts.
    ///   - url: The URL that was requested, for the message.
    init(curlError error: CurlError, url: URL?) {
        let reason = Self.reason(for: error)
        let target = url.map { " (\($0.redactedForMessages))" } ?? ""
        let message: String
        switch reason {
        case .tls: message = "The secure connection failed: \(Self.tlsProblem(error))\(target)."
        case .timedOut: message = "The request did not finish within its deadline\(target)."
        case .cannotConnect: message = "Could not connect to the server\(target): \(error)."
        case .cannotFindHost: message = "The server's host name could not be resolved\(target): \(error)."
        case .connectionLost: message = "The connection was lost before the response was complete\(target): \(error)."
        case .badResponse where error.code == 27:
            message = "The server's response could not be read\(target): a header line is too long (\(error))."
        case .badResponse: message = "The server's response could not be read\(target): \(error)."
        default: message = "\(error)\(target)"
        }
        self.init(reason, message: message, underlyingError: error)
    }

    /// The reason for a failure, by its code and, where one code covers several cases, its text.
    static func reason(for error: CurlError) -> Reason {
        // 56 is a receive error, but also a response head over libcurl's total limit (300 KB), and
        // a chunk size that is not hexadecimal or too long ("... in chunked-encoding"): a
        // malformed response, not a lost connection (which a retrier would send again).
        if error.code == 56 {
            let detail = error.detail.lowercased()
            if detail.contains("too large response headers") || detail.contains("in chunked-encoding") {
                return .badResponse
            }
        }
        // A TLS alert from the server after the handshake: TLS 1.3 servers refuse a missing or
        // untrusted client certificate this way, at the client's first read.
        if error.code == 55 || error.code == 56, error.detail.lowercased().contains(" alert ") { return .tls }
        return reason(forCurlCode: error.code)
    }

    /// The reason for a `CURLcode` (see `curl.h`'s `CURLcode`).
    static func reason(forCurlCode code: Int) -> Reason {
        switch code {
        case 3: return .unsupportedURL
        case 5, 6: return .cannotFindHost
        case 7, 97: return .cannotConnect
        case 28: return .timedOut
        case 35, 51, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98: return .tls
        case 42: return .cancelled
        case 47: return .tooManyRedirects
        case 18, 52, 55, 56, 92: return .connectionLost
        // 1 on an http(s) URL is a reply that is not HTTP ("Received HTTP/0.9").
        case 1, 8, 16, 61, 100: return .badResponse
        // 27 (out of memory) is what a response header line over libcurl's limit (100 KB) gives.
        case 27: return .badResponse
        default: return .other
        }
    }

    /// Names what went wrong in the handshake, with libcurl's own detail.
    private static func tlsProblem(_ error: CurlError) -> String {
        let named: String
        switch error.code {
        case 60, 51: named = "the server's certificate was not accepted (untrusted, expired, or for another host)"
        case 90: named = "the server's public key matches none of the pinned keys"
        case 77: named = "the trusted certificates could not be read"
        case 58: named = "the client certificate could not be used"
        case 91: named = "the server's certificate status is invalid"
        case 55, 56:
            named =
                "the server ended the TLS session (with mutual TLS: no client certificate, or one it does not accept)"
        default: named = "the TLS handshake failed"
        }
        return "\(named): \(error)"
    }
}
#endif
