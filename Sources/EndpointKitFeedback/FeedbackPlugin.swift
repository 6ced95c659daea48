import Dispatch
import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Shows a loading indicator while requests run and a message when one fails, through a
/// ``FeedbackPresenter`` the app implements: the HUD-and-toast code every app otherwise writes
/// per call.
///
/// ```swift
/// let feedback = FeedbackPlugin(presenter: HUDPresenter(), texts: .simplifiedChinese)
/// let client = APIClient(baseURL: base) { $0.plugins = [feedback] }
///
/// client.send(Login(form), info: SendInfo { $0.feedback.loadingText = "Signing in…" }) { result in ... }
/// ```
///
/// - The loading indicator shows when the first send that wants it is sent, and hides when the
///   last such send ends: overlapping sends show it once. A send answered without being sent
///   (from the cache, or failed offline before trying) does not show it.
/// - When a send fails, ``FeedbackOptions/showsFailureMessage`` is on and the failure text rule
///   gives a text, the presenter shows it as a ``FeedbackMessage/Kind/failure`` message. A
///   cancelled send shows nothing.
/// - When a send with a ``FeedbackOptions/successMessage`` succeeds with a response from the
///   network (not one the cache gave), the presenter shows that message.
///
/// Each send's switches come from ``EndpointKit/SendInfo/feedback``: the endpoint's ``/EndpointKit/APIRequest/sendInfo``,
/// replaced by the send site's `info:` if it sets them. The presenter is called on the main actor,
/// in the order things happened, and is held strongly.
public final class FeedbackPlugin: APIPlugin {
    /// Picks the text shown for a failure, or `nil` to show nothing.
    public typealias FailureText = @Sendable (APIFailure, FeedbackTexts) -> String?

    private let presenter: any FeedbackPresenter
    private let texts: FeedbackTexts
    private let failureText: FailureText
    /// The sends showing the loading indicator.
    private let loading = Locked(Set<UInt64>())

    /// Creates the plugin.
    /// - Parameters:
    ///   - presenter: Shows the feedback, on the main actor.
    ///   - texts: The loading text and the failure texts. ``FeedbackTexts/english`` by default.
    ///   - failureText: Picks a failure's text. ``defaultFailureText`` by default.
    public init(
        presenter: any FeedbackPresenter, texts: FeedbackTexts = .english,
        failureText: @escaping FailureText = FeedbackPlugin.defaultFailureText
    ) {
        self.presenter = presenter
        self.texts = texts
        self.failureText = failureText
    }

    /// The default failure text rule:
    /// - a server failure: its message (from the envelope), or ``FeedbackTexts/serverFailure``;
    /// - a timeout: ``FeedbackTexts/timeout``; no connection: ``FeedbackTexts/offline``;
    /// - a response that could not be read (bad response, unacceptable content type, decoding
    ///   failed, too large): ``FeedbackTexts/serverFailure``;
    /// - any other transport error: ``FeedbackTexts/networkError``;
    /// - cancelled, or nothing cached for a cache-only lookup: nothing.
    public static let defaultFailureText: FailureText = { failure, texts in
        switch failure {
        case .server(let failure):
            let message = failure.message?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return message.isEmpty ? texts.serverFailure : message
        case .transport(let error):
            switch error.reason {
            case .cancelled, .notCached: return nil
            case .timedOut: return texts.timeout
            case .notConnected: return texts.offline
            case .badResponse, .unacceptableContentType, .decodingFailed, .responseTooLarge: return texts.serverFailure
            default: return texts.networkError
            }
        }
    }

    /// Shows the loading indicator when this is the first send wanting it.
    public func willSend(_ request: URLRequest, context: RequestContext) {
        let options = context.info.feedback
        guard options.showsLoading else { return }
        let text = options.loadingText ?? texts.loading
        loading.withLock { sends in
            guard sends.insert(context.id).inserted, sends.count == 1 else { return }
            present { $0.showLoading(text: text, info: context.info) }
        }
    }

    /// Hides the loading indicator when this was the last send showing it, then shows the send's
    /// message, if any.
    public func didComplete<Value: Sendable>(_ result: APIResult<Value>, context: RequestContext) {
        let message = message(for: result, options: context.info.feedback)
        // Under the lock, so that what the presenter hears is in the order it happened.
        loading.withLock { sends in
            if sends.remove(context.id) != nil, sends.isEmpty { present { $0.hideLoading(info: context.info) } }
            if let message { present { $0.showMessage(message, info: context.info) } }
        }
    }

    private func message<Value>(for result: APIResult<Value>, options: FeedbackOptions) -> FeedbackMessage? {
        switch result {
        case .success(_, let metadata):
            guard let text = options.successMessage else { return nil }
            if case .cache = metadata.source { return nil }
            return FeedbackMessage(kind: .success, text: text)
        case .serverFailure, .transportError:
            guard options.showsFailureMessage, let failure = result.failure,
                let text = failureText(failure, texts)
            else { return nil }
            return FeedbackMessage(kind: .failure, text: text)
        }
    }

    private func present(_ body: @escaping @MainActor @Sendable (any FeedbackPresenter) -> Void) {
        let presenter = self.presenter
        MainQueue.async { body(presenter) }
    }
}
