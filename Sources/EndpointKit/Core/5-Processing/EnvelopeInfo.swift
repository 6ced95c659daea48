/// What a response envelope said besides the payload.
public struct EnvelopeInfo: Sendable, Hashable {
    /// The business status (`Error.ID`, `status`).
    public var status: EnvelopeScalar?
    /// The business error code (`errCode`), or the status when the envelope has no separate code.
    public var code: EnvelopeScalar?
    /// The message (`Error.Message`, `errMsg`, or a string payload on failure).
    public var message: String?
    /// Paging information (`page`), when the envelope carries it.
    public var page: PageInfo?
    /// Whether the business status meant success.
    public var isSuccess: Bool

    /// Creates envelope information.
    public init(
        status: EnvelopeScalar? = nil, code: EnvelopeScalar? = nil, message: String? = nil, page: PageInfo? = nil,
        isSuccess: Bool
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.page = page
        self.isSuccess = isSuccess
    }
}
