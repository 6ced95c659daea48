import Foundation

/// One challenge of a `WWW-Authenticate` field (RFC 9110 §11.6.1): a scheme and its parameters.
///
/// The library answers `Basic` and `Digest` challenges itself, the same way on every transport
/// (see ``ChallengeAnsweringSender``): parsing them and computing the answer is here.
package struct HTTPChallenge: Sendable, Equatable {
    /// The scheme as sent (`Basic`, `Digest`...); compare it case-insensitively.
    package var scheme: String
    /// The parameters, by lowercased name; quoted values unquoted. The first of a repeated name wins.
    package var parameters: [String: String]

    package init(scheme: String, parameters: [String: String] = [:]) {
        self.scheme = scheme
        self.parameters = parameters
    }

    // MARK: - Parsing

    /// The challenges of a `WWW-Authenticate` value; fields repeated in a response arrive joined
    /// with ", ", which parses the same. Anything that is not a challenge is skipped.
    package static func parse(_ field: String) -> [HTTPChallenge] {
        var scanner = Scanner(Array(field.utf8))
        var challenges: [HTTPChallenge] = []
        while true {
            scanner.skip { $0 == UInt8(ascii: ",") || Scanner.isSpace($0) }
            if scanner.isAtEnd { break }
            guard let scheme = scanner.token() else {
                scanner.advance()
                continue
            }
            var challenge = HTTPChallenge(scheme: scheme)
            scanner.skip(while: Scanner.isSpace)
            // A token68 (`Negotiate abc==`) instead of parameters: kept as nothing, for no scheme
            // answered here has one.
            let beforeToken68 = scanner.position
            if scanner.token68(), (scanner.peek == nil || scanner.peek == UInt8(ascii: ",")) {
                challenges.append(challenge)
                continue
            }
            scanner.position = beforeToken68
            while true {
                let mark = scanner.position
                scanner.skip { $0 == UInt8(ascii: ",") || Scanner.isSpace($0) }
                guard let name = scanner.token() else {
                    scanner.position = mark
                    break
                }
                scanner.skip(while: Scanner.isSpace)
                guard scanner.peek == UInt8(ascii: "=") else {
                    // A token that is no parameter's name: the next challenge's scheme.
                    scanner.position = mark
                    break
                }
                scanner.advance()
                scanner.skip(while: Scanner.isSpace)
                let value = scanner.peek == UInt8(ascii: "\"") ? scanner.quotedString() : (scanner.token() ?? "")
                let key = name.lowercased()
                if challenge.parameters[key] == nil { challenge.parameters[key] = value }
            }
            challenges.append(challenge)
        }
        return challenges
    }

    /// Reads the grammar of RFC 9110 §5.6 over bytes.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { position >= bytes.count }
        var peek: UInt8? { isAtEnd ? nil : bytes[position] }

        mutating func advance() { position += 1 }

        mutating func skip(while matches: (UInt8) -> Bool) {
            while let byte = peek, matches(byte) { position += 1 }
        }

        static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

        /// `tchar`: what a token is made of.
        static func isTokenCharacter(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
            }
        }

        mutating func token() -> String? {
            let start = position
            skip(while: Self.isTokenCharacter)
            return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }

        /// Reads a token68 (`1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`) and
        /// the spaces after it; `false` when there is none.
        mutating func token68() -> Bool {
            let start = position
            skip { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return true
                default: return Array("-._~+/".utf8).contains(byte)
                }
            }
            guard position > start else { return false }
            skip { $0 == UInt8(ascii: "=") }
            skip(while: Self.isSpace)
            return true
        }

        /// Reads a quoted string (the scanner is on its opening quote), undoing `\` escapes; an
        /// unterminated one ends with the field.
        mutating func quotedString() -> String {
            advance()
            var value: [UInt8] = []
            while let byte = peek {
                advance()
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\"), let escaped = peek {
                    value.append(escaped)
                    advance()
                } else {
                    value.append(byte)
                }
            }
            return String(decoding: value, as: UTF8.self)
        }
    }

    // MARK: - Answering

    /// The hash functions of Digest authentication that are answered (RFC 7616 §3.3).
    package enum DigestAlgorithm: String, Sendable, CaseIterable {
        case sha256 = "SHA-256"
        case md5 = "MD5"

        func hex(_ text: String) -> String {
            let data = Data(text.utf8)
            return Digest.lowercaseHex(self == .md5 ? MD5.hash(data) : SHA256.hash(data))
        }
    }

    /// The Digest algorithm of this challenge and whether it is a `-sess` one, or `nil` when it is
    /// no Digest challenge this library answers: another scheme, another algorithm (`SHA-512-256`),
    /// no nonce, or a `qop` list without `auth` (only `auth-int`, which would hash the body).
    package var digestAlgorithm: (algorithm: DigestAlgorithm, session: Bool)? {
        guard scheme.caseInsensitiveEquals("Digest"), parameters["nonce"] != nil else { return nil }
        if let qop = parameters["qop"], !Self.listContainsAuth(qop) { return nil }
        var name = parameters["algorithm"] ?? "MD5"
        var session = false
        if name.count > 5, name.uppercased().hasSuffix("-SESS") {
            name.removeLast(5)
            session = true
        }
        guard let algorithm = DigestAlgorithm.allCases.first(where: { $0.rawValue.caseInsensitiveEquals(name) })
        else { return nil }
        return (algorithm, session)
    }

    private static func listContainsAuth(_ qop: String) -> Bool {
        qop.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).caseInsensitiveEquals("auth") }
    }

    /// The `Authorization` value that answers the strongest of `challenges` that `credential`
    /// can: `Digest` with `SHA-256`, then `Digest` with `MD5` (a `-sess` form after the plain
    /// one), then `Basic`; `nil` when none is `Basic` or an answerable `Digest`. `Basic` only
    /// when no `Digest` challenge can be answered.
    /// - Parameters:
    ///   - method: The request's method, as sent.
    ///   - target: The request target, as sent (path and query: `/a/b?c=d`), for Digest's `uri`.
    ///   - clientNonce: Digest's `cnonce`; random by default.
    package static func authorization(
        answering challenges: [HTTPChallenge], with credential: HTTPCredential, method: String, target: String,
        clientNonce: String = randomClientNonce()
    ) -> String? {
        let digests = challenges.compactMap { challenge in challenge.digestAlgorithm.map { (challenge, $0) } }
        let strongest = digests.min { lhs, rhs in
            let (left, right) = (lhs.1, rhs.1)
            if left.algorithm != right.algorithm { return left.algorithm == .sha256 }
            return !left.session && right.session
        }
        if let (challenge, (algorithm, session)) = strongest {
            return challenge.digestAuthorization(
                credential, algorithm: algorithm, session: session, method: method, target: target,
                clientNonce: clientNonce)
        }
        if challenges.contains(where: { $0.scheme.caseInsensitiveEquals("Basic") }) {
            return credential.basicAuthorization
        }
        return nil
    }

    /// 16 random bytes in hexadecimal.
    package static func randomClientNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return Digest.lowercaseHex(Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }

    /// The RFC 7616 §3.4 answer to this Digest challenge, with nonce count 1.
    private func digestAuthorization(
        _ credential: HTTPCredential, algorithm: DigestAlgorithm, session: Bool, method: String, target: String,
        clientNonce: String
    ) -> String {
        let realm = parameters["realm"] ?? ""
        let nonce = parameters["nonce"] ?? ""
        let hashesUser = parameters["userhash"]?.caseInsensitiveEquals("true") ?? false
        let username = hashesUser ? algorithm.hex("\(credential.user):\(realm)") : credential.user
        var secret = algorithm.hex("\(credential.user):\(realm):\(credential.password)")
        if session { secret = algorithm.hex("\(secret):\(nonce):\(clientNonce)") }
        let request = algorithm.hex("\(method):\(target)")
        let count = "00000001"
        let withQuality = parameters["qop"] != nil
        let response =
            withQuality
            ? algorithm.hex("\(secret):\(nonce):\(count):\(clientNonce):auth:\(request)")
            : algorithm.hex("\(secret):\(nonce):\(request)")
        var fields = [
            "username=\(Self.quoted(username))", "realm=\(Self.quoted(realm))", "nonce=\(Self.quoted(nonce))",
            "uri=\(Self.quoted(target))",
        ]
        // The algorithm as the server named it: absent stays absent (MD5, RFC 2617's default).
        if let named = parameters["algorithm"] { fields.append("algorithm=\(named)") }
        fields.append("response=\(Self.quoted(response))")
        if let opaque = parameters["opaque"] { fields.append("opaque=\(Self.quoted(opaque))") }
        if withQuality { fields += ["qop=auth", "nc=\(count)", "cnonce=\(Self.quoted(clientNonce))"] }
        if hashesUser { fields.append("userhash=true") }
        return "Digest " + fields.joined(separator: ", ")
    }

    /// `value` as a quoted string, `"` and `\` escaped.
    private static func quoted(_ value: String) -> String {
        var result = "\""
        for character in value {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }
}
