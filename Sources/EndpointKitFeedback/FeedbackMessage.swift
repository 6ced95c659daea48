import EndpointKit
/// A message a ``FeedbackPlugin`` asks its presenter to show.
public struct FeedbackMessage: Sendable, Hashable {
    /// What a message reports.
    public enum Kind: Sendable, Hashable {
        /// A send succeeded (only sends with a ``FeedbackOptions/successMessage`` get one).
        case success
        /// A send failed.
        case failure
    }

    /// What the message reports.
    public var kind: Kind
    /// The text to show.
    public var text: String

    /// Creates a message.
    init(kind: Kind, text: String) {
        self.kind = kind
        self.text = text
    }
}
