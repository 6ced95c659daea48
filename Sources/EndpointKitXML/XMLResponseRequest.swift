import EndpointKit
import Foundation

/// An endpoint that answers XML: adopt this instead of `APIRequest` and the `Decodable` response
/// is decoded from XML by ``XMLBodyDecoder`` (the root element is the model).
///
/// ```swift
/// struct Weather: XMLResponseRequest {
///     typealias Response = Forecast
///     var path: RequestPath { "/forecast.xml" }
/// }
/// ```
///
/// For the raw tree, declare `typealias Response = XMLTree`.
public protocol XMLResponseRequest: APIRequest where Response: Decodable {}

extension XMLResponseRequest {
    /// Decodes the body as XML (``XMLTree`` itself, or a model through ``XMLBodyDecoder``).
    public func decode(_ context: DecodingContext) throws -> Response {
        let tree = try XMLTree.parse(context.data)
        if let tree = tree as? Response { return tree }
        return try XMLBodyDecoder().decode(Response.self, from: tree)
    }
}

extension XMLTree: Decodable {
    /// Not decodable from other formats; use ``XMLTree/parse(_:)``.
    public init(from decoder: any Decoder) throws {
        throw DecodingError.typeMismatch(
            XMLTree.self, .init(codingPath: decoder.codingPath, debugDescription: "Use XMLTree.parse(_:)."))
    }
}
