import Foundation

/// How an `Encodable` value is written as query parameters or an
/// `application/x-www-form-urlencoded` body: the options of
/// ``RequestParameters/query(encoding:encoder:)`` and ``RequestParameters/form(encoding:encoder:)``
/// (Alamofire's `URLEncodedFormEncoder`).
///
/// The value must be keyed (a struct or a `Dictionary`): each property becomes a parameter, in the
/// order the type encodes them (a `Dictionary`'s in the order of its keys). Nested values are
/// written with brackets (`filter[owner][name]=ada`), lists as ``arrayEncoding`` says.
///
/// ```swift
/// let encoder = FormEncoder(arrayEncoding: .indexInBrackets, keyEncoding: .convertToSnakeCase)
/// var parameters: RequestParameters { .query(encoding: filter, encoder: encoder) }
/// ```
public struct FormEncoder: Sendable {
    /// How a list is written: ``RequestParameters``' three ways, and indexes in brackets.
    public enum ArrayStyle: Sendable, Hashable {
        /// `tags=a&tags=b`.
        case repeatedKey
        /// `tags[]=a&tags[]=b`; a list of keyed values as `items[][id]=1&items[][id]=2`.
        case brackets
        /// `tags=a,b`.
        case commaSeparated
        /// `tags[0]=a&tags[1]=b`, `items[0][id]=1`, `matrix[0][1]=2`: the only style that can write
        /// a list inside a list.
        case indexInBrackets
    }

    /// How a `nil` is written.
    public enum NilEncoding: Sendable, Hashable {
        /// Left out, name and all (the default).
        case omitted
        /// The name with an empty value: `middleName=`.
        case empty
    }

    /// How a `Date` is written.
    public enum DateEncoding: Sendable {
        /// Seconds since 1970 (`1700000000`; a fraction only when the date has one).
        case secondsSince1970
        /// Milliseconds since 1970 (`1700000000000`).
        case millisecondsSince1970
        /// ISO 8601 in UTC, whole seconds: `2023-11-14T22:13:20Z` (the default).
        case iso8601
        /// The formatter's text.
        case formatted(DateFormatter)
    }

    /// How a `Bool` is written.
    public enum BoolEncoding: Sendable, Hashable {
        /// `true` and `false` (the default, as ``QueryValue`` writes them).
        case literal
        /// `1` and `0`.
        case numeric
    }

    /// How a property name becomes a parameter name.
    public enum KeyEncoding: Sendable, Hashable {
        /// The coding key as it is (the default).
        case useDefaultKeys
        /// `createdAfter` is `created_after`, `userID` is `user_id`, as `JSONEncoder` converts
        /// them. The keys of a `Dictionary` are data, and are kept as they are.
        case convertToSnakeCase
    }

    /// How a space is written.
    public enum SpaceEncoding: Sendable, Hashable {
        /// `%20` (the default, what every other parameter uses).
        case percentEscaped
        /// `+`, as HTML forms send it (and then a `+` in a value is always `%2B`).
        case plusReplaced
    }

    /// How lists are written; `nil` (the default) follows the client's
    /// ``APIClient/Configuration/arrayEncoding``. A list of keyed values needs `.brackets` or
    /// `.indexInBrackets`, and a list inside a list `.indexInBrackets`: any other style could not
    /// be read back, and the request fails with ``RequestBuildError`` instead.
    public var arrayEncoding: ArrayStyle?
    /// How a `nil` is written: left out (the default) or empty. An optional property set to `nil`
    /// counts, as does a `nil` in a list.
    public var nilEncoding: NilEncoding
    /// How a `Date` is written (ISO 8601 by default).
    public var dateEncoding: DateEncoding
    /// How a `Bool` is written (`true` and `false` by default).
    public var boolEncoding: BoolEncoding
    /// How property names become parameter names (as they are by default).
    public var keyEncoding: KeyEncoding
    /// How a space is written (`%20` by default).
    public var spaceEncoding: SpaceEncoding
    /// The characters written as they are; every other one is percent-encoded. The default is
    /// RFC 3986's unreserved characters, `A-Z a-z 0-9 - . _ ~`, as every other parameter. Only
    /// characters a query may hold as they are count: `&`, `=`, `+`, `#`, `%`, brackets,
    /// spaces, control and non-ASCII characters are always encoded, so adding them has no effect.
    public var allowedCharacters: CharacterSet

    /// Creates an encoder; every option has the default its property describes. `Data` is always
    /// written as Base64, a `URL` as its absolute string.
    public init(
        arrayEncoding: ArrayStyle? = nil, nilEncoding: NilEncoding = .omitted, dateEncoding: DateEncoding = .iso8601,
        boolEncoding: BoolEncoding = .literal, keyEncoding: KeyEncoding = .useDefaultKeys,
        spaceEncoding: SpaceEncoding = .percentEscaped,
        allowedCharacters: CharacterSet = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    ) {
        self.arrayEncoding = arrayEncoding
        self.nilEncoding = nilEncoding
        self.dateEncoding = dateEncoding
        self.boolEncoding = boolEncoding
        self.keyEncoding = keyEncoding
        self.spaceEncoding = spaceEncoding
        self.allowedCharacters = allowedCharacters
    }

    /// How the encoded names and values are percent-encoded; `nil` for the default rules.
    var spelling: QuerySpelling? {
        let spelling = QuerySpelling(allowed: allowedCharacters, spaceAsPlus: spaceEncoding == .plusReplaced)
        return spelling == .standard ? nil : spelling
    }
}

/// An `Encodable` value to write as query parameters or a form body, with its encoder: written
/// when the request is built, when the client's array encoding is known. A class: parameters and
/// bodies are copied several times per request, and one reference copies in a word where the
/// existential and the encoder took a value-witness call each (about 500 instructions a request).
package final class EncodableParameters: Sendable {
    let value: any Encodable & Sendable
    let encoder: FormEncoder

    init(value: any Encodable & Sendable, encoder: FormEncoder) {
        self.value = value
        self.encoder = encoder
    }

    /// The value's type, for messages.
    var typeName: String { String(describing: type(of: value)) }
}
