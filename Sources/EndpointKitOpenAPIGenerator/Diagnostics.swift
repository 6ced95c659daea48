import Foundation

/// A location in the document: an RFC 6901 JSON pointer, written as a URI fragment (`#/paths/~1users/get`).
package struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
    /// The reference tokens, unescaped.
    package var tokens: [String]

    /// The pointer made of `tokens`; the document's root without any.
    package init(_ tokens: [String] = []) { self.tokens = tokens }

    /// Reads a local reference (`#/components/schemas/Pet`, RFC 6901 and percent escapes undone);
    /// `nil` for a reference into another file or a malformed one.
    package init?(reference: String) {
        guard reference.hasPrefix("#") else { return nil }
        let fragment = String(reference.dropFirst()).removingPercentEncodingIfValid
        guard !fragment.isEmpty else {
            self.init()
            return
        }
        guard fragment.hasPrefix("/") else { return nil }
        let tokens = fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        self.init(tokens)
    }

    /// This pointer with one more token.
    package func appending(_ token: String) -> JSONPointer { JSONPointer(tokens + [token]) }

    /// This pointer with more tokens.
    package func appending(_ more: String...) -> JSONPointer { JSONPointer(tokens + more) }

    /// `#` and each token after a `/`, with `~` written `~0` and `/` written `~1`.
    package var description: String {
        "#"
            + tokens.map {
                "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            }
            .joined()
    }
}

extension String {
    /// The text with `%XX` escapes decoded when they are valid UTF-8, else the text as it is.
    fileprivate var removingPercentEncodingIfValid: String {
        guard contains("%") else { return self }
        var bytes: [UInt8] = []
        var iterator = Array(utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? self
    }
}

/// A problem found in the document: where, and what the generator did about it.
package struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How serious a problem is.
    package enum Severity: String, Sendable {
        /// Something was generated in a simpler way than the document asks.
        case warning
        /// Something was not generated (an operation or a schema is skipped).
        case error
    }

    /// How serious it is.
    package var severity: Severity
    /// Where in the document.
    package var pointer: JSONPointer
    /// What is wrong and what was done.
    package var message: String

    /// Creates a diagnostic.
    package init(_ severity: Severity, at pointer: JSONPointer, _ message: String) {
        self.severity = severity
        self.pointer = pointer
        self.message = message
    }

    /// `pointer: severity: message`.
    package var description: String { "\(pointer): \(severity.rawValue): \(message)" }
}

/// Why a construct cannot be generated: the pointer and message of its diagnostic.
package struct Unsupported: Error {
    /// Where the construct is.
    package var pointer: JSONPointer
    /// What is not supported.
    package var message: String

    /// Creates the failure.
    package init(_ pointer: JSONPointer, _ message: String) {
        self.pointer = pointer
        self.message = message
    }
}
