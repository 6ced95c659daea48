/// A response with no meaningful body: `204 No Content`, an empty body, or an envelope with no
/// payload (`{"status":200,"result":null}`).
///
/// ```swift
/// struct DeletePost: APIRequest {
///     typealias Response = Empty
///     let id: Int
///     var method: HTTPMethod { .delete }
///     var path: RequestPath { "/posts/\(id)" }
/// }
/// ```
public struct Empty: Sendable, Hashable, Codable {
    /// Creates the empty value.
    public init() {}

    /// Decodes from anything, ignoring the content.
    public init(from decoder: any Decoder) throws {}

    /// Encodes nothing.
    public func encode(to encoder: any Encoder) throws {}
}
