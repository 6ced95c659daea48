import EndpointKit
/// What an app implements to show a ``FeedbackPlugin``'s feedback: a loading indicator (a HUD)
/// and messages (toasts). Called on the main actor, in the order things happened.
///
/// ```swift
/// @MainActor final class HUDPresenter: FeedbackPresenter {
///     func showLoading(text: String?, info: SendInfo) { HUD.show(text, in: info.coveredView ?? window) }
///     func hideLoading(info: SendInfo) { HUD.hide() }
///     func showMessage(_ message: FeedbackMessage, info: SendInfo) { Toast.show(message.text) }
/// }
/// ```
///
/// `info` is the send's ``/EndpointKit/SendInfo``: read your own keys from it (the view to cover, whether to
/// dim the screen).
@MainActor
public protocol FeedbackPresenter: AnyObject, Sendable {
    /// Shows the loading indicator: the first send that wants it has started.
    /// - Parameters:
    ///   - text: The text to show with it, or `nil` for the indicator alone.
    ///   - info: The information of the send that started.
    func showLoading(text: String?, info: SendInfo)
    /// Hides the loading indicator: the last send that wanted it has ended.
    /// - Parameter info: The information of the send that ended last.
    func hideLoading(info: SendInfo)
    /// Shows a message about a send that ended, after the loading indicator was hidden if this
    /// send ended it.
    /// - Parameters:
    ///   - message: What to show, and whether it reports a success or a failure.
    ///   - info: The information of the send that ended.
    func showMessage(_ message: FeedbackMessage, info: SendInfo)
}
