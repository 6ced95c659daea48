/// A weak reference to a delegate that can cross threads: stored anywhere, read on the main
/// actor, where delegates are called.
package final class WeakReference<Object>: @unchecked Sendable {
    private weak var object: AnyObject?

    /// - Parameter object: A class instance (delegates are class-bound protocols).
    package init(_ object: Object) { self.object = object as AnyObject }

    /// The object, while it lives.
    package var value: Object? { object as? Object }
}
