/// The settings of features (under Features/) inside a client's configuration, each kept under its
/// own type, so that the configuration need not know them. A feature adds its settings to
/// ``APIClient/Configuration`` as properties in an extension of its own.
struct FeatureSettings: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// The setting stored under `type`, if any.
    subscript<Setting: Sendable>(_ type: Setting.Type) -> Setting? {
        get { values[ObjectIdentifier(type)] as? Setting }
        set { values[ObjectIdentifier(type)] = newValue }
    }

    /// The setting stored under `type`, or `defaultValue` to change in place.
    subscript<Setting: Sendable>(_ type: Setting.Type, default defaultValue: @autoclosure () -> Setting) -> Setting {
        get { self[type] ?? defaultValue() }
        set { self[type] = newValue }
    }
}
