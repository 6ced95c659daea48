/// What a send carries to interceptors and plugins besides the request itself: presentation
/// details (the view a loading indicator covers, a text to show), per-call switches, anything a
/// plugin defines a key for. Plugins read it from ``RequestContext/info``.
///
/// An endpoint gives its own in ``APIRequest/sendInfo``; a send site adds to it with the `info:`
/// parameter of every send (closure, delegate, async), whose values win:
///
/// ```swift
/// client.send(SaveProfile(profile), info: SendInfo { $0.feedback.loadingText = "Saving…" }) { result in ... }
/// ```
///
/// Values are looked up by key type, as SwiftUI's environment does. To add your own:
///
/// ```swift
/// enum CoveredViewKey: SendInfoKey { static let defaultValue: UIView? = nil }
///
/// extension SendInfo {
///     var coveredView: UIView? {
///         get { self[CoveredViewKey.self] }
///         set { self[CoveredViewKey.self] = newValue }
///     }
/// }
/// ```
public struct SendInfo: Sendable {
    /// The values set, by key type.
    private(set) var values: [ObjectIdentifier: any Sendable] = [:]

    /// Creates empty information: every key has its default value.
    public init() {}

    /// Empty information, made once: the default of every send.
    @usableFromInline static let empty = SendInfo()

    /// Creates information and sets values in a closure.
    public init(_ configure: (inout SendInfo) -> Void) {
        configure(&self)
    }

    /// The value for a key, or the key's default value when none was set.
    public subscript<Key: SendInfoKey>(key: Key.Type) -> Key.Value {
        get { values[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }

    /// Whether no key has a value.
    package var isEmpty: Bool { values.isEmpty }

    /// This information with `other`'s values added; where both have a value for a key,
    /// `other`'s wins.
    package func merging(_ other: SendInfo) -> SendInfo {
        if other.values.isEmpty { return self }
        if values.isEmpty { return other }
        var merged = self
        merged.values.merge(other.values) { _, new in new }
        return merged
    }
}

/// A key for a value in ``SendInfo``: a type, usually an enum without cases, naming the value's
/// type and its default.
public protocol SendInfoKey {
    /// The type of the value.
    associatedtype Value: Sendable
    /// The value when none was set.
    static var defaultValue: Value { get }
}
