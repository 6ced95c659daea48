import Foundation

/// Everything a request sends besides its path and headers: query parameters and a body.
///
/// Write it as a literal for the common case: like Alamofire's `URLEncoding.default`, a
/// dictionary literal goes into the query string for `GET`, `HEAD` and `DELETE` and into a form
/// body for other methods. Use the static factories to choose explicitly:
///
/// ```swift
/// var parameters: RequestParameters { ["page": 2, "size": 20] }       // by method
/// var parameters: RequestParameters { .query(["q": "swift"]) }          // always the query
/// var parameters: RequestParameters { .json(NewUser(name: "Ada")) }     // JSON body
/// var parameters: RequestParameters { .query(encoding: filter) }        // an Encodable value
/// var parameters: RequestParameters { .form(["user": "ada"]).appendingQuery(["v": 2]) }
/// ```
public struct RequestParameters: Sendable, ExpressibleByDictionaryLiteral {
    /// Parameters always sent in the query string.
    public var query: QueryItems
    /// The body, if any: made by the factories below.
    package var body: RequestBody?
    /// Parameters placed by method: query for `GET`, `HEAD` and `DELETE`, form body otherwise.
    package var methodDependent: QueryItems
    /// A value written into the query string before ``query`` when the request is built.
    package var encodedQuery: EncodableParameters?

    /// Creates parameters from their parts.
    package init(query: QueryItems = QueryItems(), body: RequestBody? = nil, methodDependent: QueryItems = QueryItems())
    {
        self.query = query
        self.body = body
        self.methodDependent = methodDependent
    }

    /// Creates method-dependent parameters from a dictionary literal.
    public init(dictionaryLiteral elements: (String, QueryValue)...) {
        let items: [QueryItems.Item] = elements.map { QueryItems.Item($0.0, $0.1) }
        self.init(methodDependent: QueryItems(items))
    }

    /// No parameters: no query items and no body (the default of every endpoint). A property, like
    /// `Optional.none`, so it is written without parentheses: `var parameters: RequestParameters { .none }`.
    public static let none = RequestParameters(query: QueryItems())

    /// Query-string parameters, whatever the method.
    public static func query(_ items: QueryItems) -> RequestParameters { RequestParameters(query: items) }

    /// Parameters placed by method (see the type's discussion).
    public static func methodDependent(_ items: QueryItems) -> RequestParameters {
        RequestParameters(methodDependent: items)
    }

    /// A JSON body from an `Encodable` value (the request's or client's encoder unless given).
    public static func json<Value: Encodable & Sendable>(
        _ value: Value, encoder: JSONEncoder? = nil
    ) -> RequestParameters {
        RequestParameters(body: .json(value, encoder: encoder))
    }

    /// A JSON body from a ``JSONValue`` literal.
    public static func json(_ value: JSONValue) -> RequestParameters { RequestParameters(body: .json(value)) }

    /// An `application/x-www-form-urlencoded` body.
    public static func form(_ items: QueryItems) -> RequestParameters { RequestParameters(body: .form(items)) }

    /// Query-string parameters from an `Encodable` value, whatever the method: each property is a
    /// parameter, nested values in brackets, as `encoder` says (see ``FormEncoder``). A value that
    /// cannot be written fails the request with ``RequestBuildError/definitionFailed(_:)``.
    ///
    /// ```swift
    /// var parameters: RequestParameters { .query(encoding: filter) }
    /// ```
    public static func query<Value: Encodable & Sendable>(
        encoding value: Value, encoder: FormEncoder = FormEncoder()
    ) -> RequestParameters {
        var parameters = RequestParameters(query: QueryItems())
        parameters.encodedQuery = EncodableParameters(value: value, encoder: encoder)
        return parameters
    }

    /// An `application/x-www-form-urlencoded` body from an `Encodable` value, written as
    /// ``query(encoding:encoder:)`` writes a query. A value that cannot be written fails the
    /// request with ``RequestBuildError/bodyEncodingFailed(_:)``.
    public static func form<Value: Encodable & Sendable>(
        encoding value: Value, encoder: FormEncoder = FormEncoder()
    ) -> RequestParameters {
        RequestParameters(body: .form(EncodableParameters(value: value, encoder: encoder)))
    }

    /// Raw bytes with a content type.
    public static func data(_ data: Data, contentType: String) -> RequestParameters {
        RequestParameters(body: .data(data, contentType: contentType))
    }

    /// A `multipart/form-data` body.
    public static func multipart(_ form: MultipartFormData) -> RequestParameters {
        RequestParameters(body: .multipart(form))
    }

    /// A file's bytes as the body, streamed from disk.
    public static func file(_ url: URL, contentType: String? = nil) -> RequestParameters {
        RequestParameters(body: .file(url, contentType: contentType))
    }

    /// A text body (UTF-8), `text/plain` unless `contentType` says otherwise.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestParameters {
        RequestParameters(body: .text(text, contentType: contentType))
    }

    /// These parameters with `items` appended to the query string, whatever the body is: a JSON or
    /// form body stays the body and the items go into the URL.
    ///
    /// ```swift
    /// var parameters: RequestParameters { .json(order).appendingQuery(["dryRun": true]) }
    /// // POST /orders?dryRun=true  with  {"item":"tea","count":2}
    /// var parameters: RequestParameters { .form(["name": "Ada"]).appendingQuery(["v": 2]) }
    /// ```
    public func appendingQuery(_ items: QueryItems) -> RequestParameters {
        var copy = self
        copy.query.append(contentsOf: items)
        return copy
    }
}
