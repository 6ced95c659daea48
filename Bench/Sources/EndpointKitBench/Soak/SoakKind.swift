/// What one soak request asks the test server for, and the outcomes it may end in.
///
/// Only faults the test server already scripts are used (`TestResponse`): normal, chunked and
/// delayed JSON, envelopes with a business failure, 404/500/503, a body that does not decode,
/// `.stall`, `.stallAfterHeaders`, `.closeMidBody`, `.raw` garbage and invalid status lines,
/// and `.close`.
enum SoakKind: String, CaseIterable, Sendable {
    /// `200` with the user JSON (Content-Length).
    case json
    /// The user JSON, chunked.
    case chunked
    /// The user JSON after a few milliseconds.
    case delayed
    /// The user JSON from one URL for every such request, with coalescing on: identical requests in
    /// flight share a transfer, and cancelling one leaves it to the others.
    case coalesced
    /// A `statusResult` envelope around the user.
    case envelope
    /// A `statusResult` envelope whose business status says no.
    case businessFailure
    /// `500`, empty body.
    case status500
    /// `404`, empty body.
    case status404
    /// `503`, retried twice after short waits.
    case retried
    /// `200` with JSON that does not decode into the model.
    case wrongShape
    /// Never answers; a short request timeout ends it.
    case stall
    /// Headers, then no body; a short request timeout ends it.
    case stallAfterHeaders
    /// The user JSON after 30 ms with a timeout of 15 to 60 ms: success or timeout, whichever wins.
    case timeoutRace
    /// Declares 1000 bytes, sends 100, closes.
    case closeMidBody
    /// Bytes that are not HTTP, then closes.
    case garbage
    /// Closes without answering.
    case close
    /// `HTTP/1.1 abc`, then closes.
    case invalidStatus

    /// How often the kind is picked, out of the sum of all weights (100).
    var weight: Int {
        switch self {
        case .json: return 36
        case .chunked, .status500: return 7
        case .delayed, .envelope, .businessFailure: return 6
        case .coalesced, .status404: return 5
        case .retried, .wrongShape, .timeoutRace, .closeMidBody: return 3
        case .stall, .stallAfterHeaders, .garbage, .close, .invalidStatus: return 2
        }
    }

    /// The path requested.
    var path: String {
        switch self {
        case .json, .coalesced: return SoakRoutes.user
        case .chunked: return SoakRoutes.chunkedUser
        case .delayed, .timeoutRace: return SoakRoutes.delayedUser
        case .envelope: return SoakRoutes.envelope
        case .businessFailure: return SoakRoutes.businessFailure
        case .status500: return "/status/500"
        case .status404: return "/status/404"
        case .retried: return "/status/503"
        case .wrongShape: return SoakRoutes.wrongShape
        case .stall: return "/fault/stall"
        case .stallAfterHeaders: return "/fault/stall-after-headers"
        case .closeMidBody: return "/fault/close-mid-body"
        case .garbage: return "/fault/garbage"
        case .close: return "/fault/close"
        case .invalidStatus: return "/fault/invalid-status"
        }
    }

    /// The outcomes it may end in when it is not cancelled, on either transport.
    var expected: Set<SoakOutcome> {
        switch self {
        case .json, .chunked, .delayed, .coalesced, .envelope: return [.success]
        case .businessFailure, .status500, .status404, .retried: return [.serverFailure]
        case .wrongShape: return [.transport(.decodingFailed)]
        case .stall, .stallAfterHeaders: return [.transport(.timedOut)]
        case .timeoutRace: return [.success, .transport(.timedOut)]
        case .closeMidBody: return [.transport(.connectionLost)]
        case .garbage, .invalidStatus: return [.transport(.badResponse)]
        case .close: return [.transport(.connectionLost), .transport(.badResponse)]
        }
    }
}
