import EndpointKitOpenAPIReader

/// The parts of an OpenAPI 3.0 or 3.1 document the generator uses.
package struct Document: Sendable {
    /// The whole document, for resolving references.
    package var root: Node
    /// `info.title`.
    package var title: String
    /// `info.version`, when there is one.
    package var version: String?
    /// `info.description`.
    package var description: String?
    /// `servers`.
    package var servers: [Server]
    /// Every operation, in document order (paths, then methods in the order written).
    package var operations: [Operation]
    /// `components.schemas`, in document order.
    package var schemas: [(name: String, node: Node)]
    /// `components.securitySchemes`, in document order.
    package var securitySchemes: [SecurityScheme]
    /// The top-level `security`: each requirement's scheme names.
    package var security: [[String]]
}

/// One entry of `servers`.
package struct Server: Sendable, Hashable {
    /// The URL template (`https://{region}.example.com/v1`).
    package var url: String
    /// The description.
    package var description: String?
    /// The template's variables, in document order.
    package var variables: [(name: String, defaultValue: String, description: String?)]

    /// Whether two servers are the same.
    package static func == (lhs: Server, rhs: Server) -> Bool {
        lhs.url == rhs.url && lhs.description == rhs.description
            && lhs.variables.map(\.name) == rhs.variables.map(\.name)
            && lhs.variables.map(\.defaultValue) == rhs.variables.map(\.defaultValue)
    }

    /// Hashes the URL.
    package func hash(into hasher: inout Hasher) { hasher.combine(url) }
}

/// One operation: a method on a path.
package struct Operation: Sendable {
    /// Where it is (`#/paths/~1users/get`).
    package var pointer: JSONPointer
    /// The method, upper case (`GET`).
    package var method: String
    /// The path template (`/users/{id}`).
    package var path: String
    /// The `operationId`.
    package var operationID: String?
    /// The summary.
    package var summary: String?
    /// The description.
    package var description: String?
    /// The tags.
    package var tags: [String]
    /// Whether it is deprecated.
    package var deprecated: Bool
    /// Its parameters and the path's, references resolved (the operation's win).
    package var parameters: [Parameter]
    /// The request body, references resolved.
    package var requestBody: Body?
    /// The responses, in document order, references resolved.
    package var responses: [(status: String, body: Body)]
    /// Its `security`, or the document's when it has none: each requirement's scheme names.
    package var security: [[String]]
}

/// A parameter of an operation.
package struct Parameter: Sendable {
    /// Where it is.
    package var pointer: JSONPointer
    /// The name on the wire.
    package var name: String
    /// `path`, `query`, `header` or `cookie`.
    package var location: String
    /// Whether it must be given (always for a path parameter).
    package var required: Bool
    /// Its schema (from `schema`, or the first of `content`), and where it is.
    package var schema: (node: Node, pointer: JSONPointer)?
    /// Whether it is written as JSON text (`content: application/json`).
    package var json: Bool
    /// The description.
    package var description: String?
    /// Whether it is deprecated.
    package var deprecated: Bool
    /// `explode` (true unless the document says false, as for `style: form`).
    package var explode: Bool
    /// `style`.
    package var style: String?
}

/// A request body or a response.
package struct Body: Sendable {
    /// Where it is.
    package var pointer: JSONPointer
    /// The description.
    package var description: String?
    /// Whether a request body must be sent.
    package var required: Bool
    /// The media types, in document order.
    package var contents: [Content]
}

/// One media type of a body.
package struct Content: Sendable {
    /// The media type (`application/json`), lower-cased.
    package var mediaType: String
    /// Its schema and where it is.
    package var schema: (node: Node, pointer: JSONPointer)?
    /// Its `example`, or the `value` of its first `examples` entry.
    package var example: Node?
    /// Where it is.
    package var pointer: JSONPointer
}

/// One entry of `components.securitySchemes`.
package struct SecurityScheme: Sendable, Hashable {
    /// What the scheme sends.
    package enum Kind: Sendable, Hashable {
        /// A key in a header, query parameter or cookie with this name.
        case apiKey(name: String, location: String)
        /// `Authorization: Bearer <token>` (`http` `bearer`, `oauth2`, `openIdConnect`).
        case bearer
        /// `Authorization: Basic …`.
        case basic
    }

    /// The scheme's name in the document.
    package var name: String
    /// What it sends.
    package var kind: Kind
    /// The description.
    package var description: String?
    /// Where it is.
    package var pointer: JSONPointer
}
