import EndpointKit
/// The feedback one send asks a ``FeedbackPlugin`` for: whether it shows the loading indicator,
/// with which text, and which messages.
///
/// Set it for every send of an endpoint in ``/EndpointKit/APIRequest/sendInfo``, or for one send with `info:`:
///
/// ```swift
/// struct RefreshBadge: APIRequest {
///     var sendInfo: SendInfo { SendInfo { $0.feedback = .silent } }  // a background call
///     ...
/// }
///
/// client.send(SaveProfile(profile), info: SendInfo {
///     $0.feedback.loadingText = "Saving…"
///     $0.feedback.successMessage = "Saved"
/// }) { result in ... }
/// ```
///
/// A send's `info:` replaces the endpoint's options as a whole when it sets them.
public struct FeedbackOptions: Sendable, Hashable {
    /// Whether the loading indicator shows while this send runs. `true` by default.
    public var showsLoading: Bool
    /// The text shown with the loading indicator, or `nil` for the plugin's
    /// ``FeedbackTexts/loading``. `nil` by default.
    public var loadingText: String?
    /// Whether a failure shows a message (see ``FeedbackPlugin/defaultFailureText``). `true` by
    /// default.
    public var showsFailureMessage: Bool
    /// A message shown when this send succeeds with a response from the network, or `nil` for
    /// none. `nil` by default.
    public var successMessage: String?

    /// Creates options; every argument has the default described on its property.
    public init(
        showsLoading: Bool = true, loadingText: String? = nil, showsFailureMessage: Bool = true,
        successMessage: String? = nil
    ) {
        self.showsLoading = showsLoading
        self.loadingText = loadingText
        self.showsFailureMessage = showsFailureMessage
        self.successMessage = successMessage
    }

    /// No loading indicator and no message: for calls the user did not ask for.
    public static var silent: FeedbackOptions { FeedbackOptions(showsLoading: false, showsFailureMessage: false) }
}

/// The key of ``EndpointKit/SendInfo/feedback``.
enum FeedbackOptionsKey: SendInfoKey {
    static var defaultValue: FeedbackOptions { FeedbackOptions() }
}

extension SendInfo {
    /// What a ``FeedbackPlugin`` shows for this send. ``FeedbackOptions/init(showsLoading:loadingText:showsFailureMessage:successMessage:)``
    /// (loading indicator and failure messages, no success message) unless set.
    public var feedback: FeedbackOptions {
        get { self[FeedbackOptionsKey.self] }
        set { self[FeedbackOptionsKey.self] = newValue }
    }
}
