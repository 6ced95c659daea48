import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What may reach the wire in a request head: methods and header names that are RFC 9110 tokens,
/// header values without CR, LF or NUL.
///
/// Checked three times: when a request is built, again after interceptors adapted it (an adapter
/// or a credential may write anything into the `URLRequest`), and by every transport right before
/// bytes are written (``Transport`` is public: a caller may hand it any `URLRequest`).
enum HeaderFieldRules {
    /// Whether `string` is a non-empty RFC 9110 token. Walks the UTF-8 in place, with no table
    /// to reach through a lazily made global.
    static func isToken(_ string: String) -> Bool {
        var string = string
        return string.withUTF8 { bytes in
            guard !bytes.isEmpty else { return false }
            for byte in bytes where !isTokenByte(byte) { return false }
            return true
        }
    }

    /// Whether `byte` is an RFC 9110 token character: a letter, a digit or one of ``!#$%&'*+-.^_`|~``.
    @inline(__always)
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// CR, LF or NUL: the bytes that could split or cut a request if they reached the wire.
    static func isInjectionByte(_ byte: UInt8) -> Bool { byte == 0x0D || byte == 0x0A || byte == 0x00 }

    /// Checks one field.
    /// - Throws: ``RequestBuildError/invalidHeader(name:reason:)`` for a name that is not a token,
    ///   ``RequestBuildError/controlCharacter(component:)`` for a value holding CR, LF or NUL.
    static func check(name: String, value: String) throws(RequestBuildError) {
        guard isToken(name) else { throw .invalidHeader(name: name, reason: "the name is not an HTTP token") }
        guard !value.utf8.contains(where: isInjectionByte) else { throw .controlCharacter(component: "header \(name)") }
    }

    /// Checks the method and every header field of a request about to be sent.
    static func check(_ request: URLRequest) throws(RequestBuildError) {
        if let method = request.httpMethod, !isToken(method) {
            throw .definitionFailed("invalid method \(method.debugDescription)")
        }
        guard let fields = request.allHTTPHeaderFields else { return }
        for (name, value) in fields { try check(name: name, value: value) }
    }

    /// The check of ``check(_:)`` as the failure a transport reports before writing anything.
    static func refusal(of request: URLRequest) -> TransportError? {
        do throws(RequestBuildError) {
            try check(request)
            return nil
        } catch {
            return TransportError(.requestBuildFailed, message: error.description, underlyingError: error)
        }
    }
}
