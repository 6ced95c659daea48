import Foundation

/// A user name and password that answers a server's HTTP authentication challenge: a `401` whose
/// `WWW-Authenticate` asks for `Basic` (RFC 7617) or `Digest` (RFC 7616: `MD5`, `SHA-256` and
/// their `-sess` forms, `qop=auth`).
///
/// Set it on an endpoint (``APIRequest/credential``) or on the client
/// (``APIClient/Configuration/credential``); the endpoint's wins. Nothing is sent until the server
/// asks: the request goes out without credentials, and when the answer is a `401` with a challenge
/// the credential can answer, the request is sent again, once, with the `Authorization` computed
/// for that challenge (the strongest offered: `Digest` with `SHA-256`, then with `MD5`, then
/// `Basic` only when no `Digest` challenge can be answered). A second `401` is the result, a ``ServerFailure`` with status 401: a wrong password
/// never loops.
///
/// ```swift
/// struct Report: APIRequest {
///     typealias Response = Data
///     var path: RequestPath { "/reports/latest" }
///     var credential: HTTPCredential? { HTTPCredential(user: "ada", password: "lovelace") }
/// }
/// ```
///
/// A credential answers only the origin (scheme, host and port) its request was sent to, the
/// client's only the origin of the client's ``APIClient/Configuration/baseURL``: a challenge from
/// anywhere else, such as a server a redirect led to, is the result as it is. `Basic` sends the
/// password itself, readable over plain `http`; prefer `https`. To send `Basic` with every request
/// without waiting for a challenge, set the header: ``HTTPHeaders/authorization(username:password:)``.
///
/// The password is never part of ``description`` or of what `dump` and a `Mirror` show.
public struct HTTPCredential: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The user name.
    public var user: String
    /// The password.
    package var password: String

    /// Creates a credential.
    /// - Parameters:
    ///   - user: The user name.
    ///   - password: The password.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// `HTTPCredential(user: "ada", password: REDACTED)`: the password is never written.
    public var description: String { "HTTPCredential(user: \(String(reflecting: user)), password: REDACTED)" }

    /// The user name only: `dump` and debuggers never show the password.
    public var customMirror: Mirror { Mirror(self, children: ["user": user], displayStyle: .struct) }

    /// The `Authorization` value of HTTP Basic authentication (RFC 7617): `Basic` and the Base64
    /// of the UTF-8 of `user:password`.
    package var basicAuthorization: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }
}

extension HTTPHeaders {
    /// Headers holding an `Authorization` field with HTTP Basic credentials (RFC 7617), sent with
    /// every request as they are, without waiting for a challenge (Alamofire's
    /// `HTTPHeaders.authorization(username:password:)`):
    ///
    /// ```swift
    /// var headers: HTTPHeaders { .authorization(username: "ada", password: "lovelace") }
    /// ```
    ///
    /// Like any `Authorization` header, it is dropped by a redirect to another origin and written
    /// as `REDACTED` in logs. To send credentials only when the server asks, and to answer `Digest`
    /// too, use an ``HTTPCredential`` instead.
    /// - Parameters:
    ///   - username: The user name.
    ///   - password: The password.
    /// - Returns: Headers with one field, `Authorization: Basic <Base64 of username:password>`.
    public static func authorization(username: String, password: String) -> HTTPHeaders {
        ["Authorization": HTTPCredential(user: username, password: password).basicAuthorization]
    }
}
