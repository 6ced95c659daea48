import EndpointKit
import Foundation

/// The stubs of a ``StubTransport`` and the requests it saw: matching, precedence, sequences.
///
/// Kept apart from delivery (``/EndpointKit/TransportResponse/make(for:status:headers:body:reportsProgress:)``
/// writes downloads and reports progress), so a new kind of transfer only changes delivery.
final class StubRegistry: @unchecked Sendable {
    private struct Stub {
        let matcher: StubMatcher
        let responses: [StubResponse]
        var answered = 0
    }

    /// How a request was resolved.
    enum Resolution {
        case answer(StubResponse)
        case noMatch(String)
    }

    private let lock = NSLock()
    private var stubs: [Stub] = []
    private var recorded: [RecordedRequest] = []
    let precedence: StubTransport.Precedence
    let answersFromSamples: Bool

    init(precedence: StubTransport.Precedence, answersFromSamples: Bool) {
        self.precedence = precedence
        self.answersFromSamples = answersFromSamples
    }

    func add(_ matcher: StubMatcher, _ responses: [StubResponse]) {
        lock.withLock { stubs.append(Stub(matcher: matcher, responses: responses)) }
    }

    func removeAll() { lock.withLock { stubs.removeAll() } }

    var requests: [RecordedRequest] { lock.withLock { recorded } }

    /// Records `request` and picks its answer: the most recently added matching stub (or, with
    /// ``StubTransport/Precedence/rejectAmbiguous``, the only one), advancing its sequence; then
    /// the endpoint's sample if allowed; else an explanation of why nothing matched.
    func resolve(_ request: RecordedRequest) -> Resolution {
        // Matchers run outside the lock: they are user code and may be slow or reentrant.
        let candidates = lock.withLock { () -> [(index: Int, matcher: StubMatcher)] in
            recorded.append(request)
            return stubs.indices.reversed().map { ($0, stubs[$0].matcher) }
        }
        let matching = candidates.filter { $0.matcher.matches(request) }
        if precedence == .rejectAmbiguous, matching.count > 1 {
            let names = matching.reversed().map(\.matcher.description).joined(separator: ", ")
            return .noMatch("\(matching.count) stubs match \(request): \(names). Precedence is .rejectAmbiguous.")
        }
        if let first = matching.first, let response = nextResponse(ofStubAt: first.index) {
            return resolveSample(response, for: request)
        }
        if answersFromSamples, request.endpoint is any SampleResponseProviding {
            return resolveSample(.sample, for: request)
        }
        let known = candidates.reversed().map(\.matcher.description)
        let list = known.isEmpty ? "none" : known.joined(separator: ", ")
        let samples = answersFromSamples ? " The endpoint has no sample response." : ""
        return .noMatch("No stub matches \(request). Stubs: \(list).\(samples)")
    }

    private func nextResponse(ofStubAt index: Int) -> StubResponse? {
        lock.withLock {
            guard stubs.indices.contains(index), !stubs[index].responses.isEmpty else { return nil }
            let responses = stubs[index].responses
            let response = responses[min(stubs[index].answered, responses.count - 1)]
            stubs[index].answered += 1
            return response
        }
    }

    /// Replaces ``StubResponse/sample`` by the endpoint's sample, keeping the delay.
    private func resolveSample(_ response: StubResponse, for request: RecordedRequest) -> Resolution {
        guard case .sample(let name, let status) = response.content else { return .answer(response) }
        guard let provider = request.endpoint as? any SampleResponseProviding else {
            let name = request.endpoint.map { "\(Swift.type(of: $0))" } ?? "The request"
            return .noMatch("\(name) has no sample response: adopt SampleResponseProviding (\(request)).")
        }
        var sample: StubResponse
        if let name {
            guard let named = provider.sampleResponses[name] else {
                let known = provider.sampleResponses.keys.sorted().joined(separator: ", ")
                return .noMatch("\(type(of: provider)) has no sample named \"\(name)\". Samples: \(known).")
            }
            sample = named
        } else {
            sample = provider.sampleResponse
        }
        if case .sample = sample.content {
            return .noMatch("The sample response of \(type(of: provider)) refers to a sample itself.")
        }
        if let status {
            guard let replaced = sample.replacingStatus(with: status) else {
                return .noMatch(
                    "The sample response of \(type(of: provider)) is a transport error; it has no status to replace with \(status)."
                )
            }
            sample = replaced
        }
        sample = .delayed(response.delay, sample)
        return .answer(sample)
    }
}
