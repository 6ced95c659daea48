import EndpointKitOpenAPIReader

/// What the generator writes for one operation.
struct RequestPlan {
    /// Where a stored property of the request goes.
    enum Role: Hashable {
        /// The path parameter with this name.
        case path(String)
        /// A query parameter: name, whether lists repeat the name, whether it is sent as JSON text.
        case query(String, explode: Bool, deepObject: Bool)
        /// A header.
        case header(String)
        /// A cookie.
        case cookie(String)
        /// The whole body.
        case body
        /// A part of a `multipart/form-data` body with this name.
        case part(String)
    }

    /// A stored property of the request.
    struct Member: Hashable {
        /// The Swift name, unescaped.
        var name: String
        /// The type, without the optional.
        var type: SwiftType
        /// Whether it is optional (defaults to `nil` in the initializer).
        var optional: Bool
        /// Its documentation.
        var documentation: String?
        /// Where it goes.
        var role: Role

        /// The declared type.
        var declaredType: SwiftType { optional ? type.optional : type }
    }

    /// How the body is sent.
    enum BodyKind: Hashable {
        /// No body.
        case none
        /// `.json(body)`.
        case json
        /// `.form(encoding: body)`.
        case form
        /// `.text(body, contentType:)`.
        case text(String)
        /// `.data(body, contentType:)`.
        case data(String)
        /// `.multipart(form)` from the `part` members.
        case multipart
    }

    /// The operation.
    var operation: Operation
    /// The type name.
    var name: String
    /// The response type (`Empty`, `String`, `Data`, a model); ignored when streaming.
    var response: SwiftType
    /// Whether the response is a Server-Sent Events stream.
    var streaming: Bool
    /// The stored properties, in initializer order.
    var members: [Member]
    /// How the body is sent.
    var bodyKind: BodyKind
    /// When the initializer takes the body's properties: the body struct's name and properties.
    var flattened: (type: String, properties: [Property])?
    /// The status of the response decoded.
    var status: Int
    /// An example of the response's JSON, for a sample.
    var example: Node?
    /// The media type of a text or event-stream example; `nil` for JSON.
    var exampleType: String? = nil

    /// The named types it uses.
    var referencedNames: [String] {
        members.flatMap(\.type.names) + response.names + (flattened.map { [$0.type] } ?? [])
    }
}

/// What the generated code needs to know about a named type to write it as text.
enum ScalarKind {
    /// `String`.
    case string
    /// A number or `Bool`: `String(value)`.
    case describable
    /// `UUID`.
    case uuid
    /// `Date`.
    case date
    /// `Data`.
    case data
    /// A generated string enum.
    case stringEnum
    /// A generated integer enum.
    case integerEnum
    /// `JSONValue`.
    case json
    /// Anything else: written as JSON text.
    case other
}
