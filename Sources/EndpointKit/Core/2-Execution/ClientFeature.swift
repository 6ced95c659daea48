import Foundation

/// A feature of a client: gives each send the stage it needs, if any.
protocol ClientFeature: Sendable {
    /// The only response type this feature serves (a download's `URL`, a stream's summary), or
    /// `nil` for every request. Read once, when the client is made: a send of another response
    /// type never asks this feature, so a plain request runs no feature code.
    var responseType: Any.Type? { get }

    /// The stage for one send of `request`, or `nil` when the feature does not apply to it.
    func stage<Request: APIRequest>(for request: Request, options: SendOptions) -> (any RequestStage)?
}

extension ClientFeature {
    /// Every request.
    var responseType: Any.Type? { nil }
}

/// A client's features, in the order their stages run, sorted once by the response types they
/// serve: what a send of `Response` asks is one dictionary lookup away.
struct FeatureList: Sendable {
    /// The features that serve every request.
    private let universal: [any ClientFeature]
    /// For each response type a feature is limited to, the features a send of it asks, in order.
    private let byResponseType: [ObjectIdentifier: [any ClientFeature]]

    init(_ features: [any ClientFeature]) {
        universal = features.filter { $0.responseType == nil }
        var byResponseType: [ObjectIdentifier: [any ClientFeature]] = [:]
        for case let type? in features.map(\.responseType) where byResponseType[ObjectIdentifier(type)] == nil {
            byResponseType[ObjectIdentifier(type)] = features.filter { feature in
                feature.responseType.map { ObjectIdentifier($0) == ObjectIdentifier(type) } ?? true
            }
        }
        self.byResponseType = byResponseType
    }

    /// The features a send of a request whose response is `Response` asks, in order.
    func features<Response>(for type: Response.Type) -> [any ClientFeature] {
        guard !byResponseType.isEmpty, let special = byResponseType[ObjectIdentifier(type)] else { return universal }
        return special
    }
}

/// What one send asks of the client beyond its request.
package struct SendOptions: Sendable {
    /// Replaces the cache mode of the request's ``CachePolicy``.
    var cacheMode: CachePolicy.Mode?
    /// Whether the transfer's progress is published: the caller holds the send's handle (an
    /// awaited send, or one inside a batch or chain, has no handle of its own to read it from).
    package var reportsProgress = true
    /// What the send site adds to the request's ``APIRequest/sendInfo``.
    package var info = SendInfo()
    /// A stage the send brings itself, from a module built on the core (a stream gives each
    /// connection its body sink): it runs before the stages of the client's features.
    package var stage: (any RequestStage)?
    /// Whether the response body goes to a sink as it arrives instead of being collected (a
    /// stream's): the cache neither answers nor stores such a send.
    package var streamsBody = false

    package init(
        reportsProgress: Bool = true, info: SendInfo = SendInfo(), stage: (any RequestStage)? = nil,
        streamsBody: Bool = false
    ) {
        self.reportsProgress = reportsProgress
        self.info = info
        self.stage = stage
        self.streamsBody = streamsBody
    }

    init(cacheMode: CachePolicy.Mode?, reportsProgress: Bool = true, info: SendInfo = SendInfo()) {
        self.cacheMode = cacheMode
        self.reportsProgress = reportsProgress
        self.info = info
    }

    package static let none = SendOptions()
    /// An awaited send with no information of its own: no progress published.
    static let awaited = SendOptions(reportsProgress: false)
}
