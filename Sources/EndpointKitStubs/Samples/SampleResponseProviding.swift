import EndpointKit

/// An endpoint that carries example responses next to its definition, like Moya's `sampleData`.
///
/// A ``StubTransport`` answers from them: with ``StubResponse/sample`` in a stub, or for every
/// request no stub matches when created with `answersFromSamples: true`.
///
/// ```swift
/// extension GetUser: SampleResponseProviding {
///     var sampleResponse: StubResponse { .json(#"{"id":7,"name":"Ada"}"#) }
///     var sampleResponses: [String: StubResponse] { ["missing": .status(404)] }
/// }
/// ```
///
/// A ``/EndpointKit/BaseRequest`` subclass declares the members `nonisolated`, like its endpoint members.
public protocol SampleResponseProviding: APIRequest {
    /// The answer this endpoint gives in tests and demos when nothing else is said.
    var sampleResponse: StubResponse { get }
    /// More answers by name, such as `"empty"` or `"expired"`, for ``StubResponse/sample(_:status:)``.
    /// None by default.
    var sampleResponses: [String: StubResponse] { get }
}

extension SampleResponseProviding {
    /// No named samples.
    public var sampleResponses: [String: StubResponse] { [:] }
}
