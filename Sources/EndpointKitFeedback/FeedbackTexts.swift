import EndpointKit
/// The texts a ``FeedbackPlugin`` shows when a send does not give its own: with the loading
/// indicator, and for failures that carry no message of their own.
///
/// Start from ``english`` or ``simplifiedChinese`` and change what you like:
///
/// ```swift
/// var texts = FeedbackTexts.simplifiedChinese
/// texts.offline = "当前没有网络"
/// let feedback = FeedbackPlugin(presenter: presenter, texts: texts)
/// ```
public struct FeedbackTexts: Sendable, Hashable {
    /// Shown with the loading indicator, or `nil` for the indicator alone.
    public var loading: String?
    /// A timeout.
    public var timeout: String
    /// No network connection.
    public var offline: String
    /// Any other transport error: the host cannot be reached, the connection broke, TLS failed.
    public var networkError: String
    /// A server failure without a message, or a response that could not be read.
    public var serverFailure: String

    /// Creates texts.
    public init(loading: String?, timeout: String, offline: String, networkError: String, serverFailure: String) {
        self.loading = loading
        self.timeout = timeout
        self.offline = offline
        self.networkError = networkError
        self.serverFailure = serverFailure
    }

    /// English texts; no loading text.
    public static let english = FeedbackTexts(
        loading: nil, timeout: "The server took too long to answer. Please try again.",
        offline: "You are offline. Check your connection and try again.",
        networkError: "Could not reach the server. Please try again later.",
        serverFailure: "Something went wrong on our side. Please try again later.")

    /// Simplified Chinese texts; no loading text.
    public static let simplifiedChinese = FeedbackTexts(
        loading: nil, timeout: "服务器响应超时，请稍后再试", offline: "当前网络不可用，请检查网络连接",
        networkError: "无法连接服务器，请稍后再试", serverFailure: "服务开小差了，请稍后再试")
}
