/// How a transport decides whether to trust an HTTPS server: one type for every transport.
///
/// - ``system``: the platform's trust store and host-name check (the default).
/// - ``customRoots(_:)``: trust these CA or self-signed certificates instead of the system's.
/// - ``pinnedCertificates(_:)``: the server's verified chain must contain one of these.
/// - ``pinnedPublicKeys(_:roots:)-([PublicKeyPin],_)``: the server's leaf key must hash to one of these pins, on top of
///   a verified chain.
///
/// Every policy verifies the chain and the host name; only
/// ``dangerouslyDisablingHostNameVerification()`` turns the host check off, for tests. Malformed
/// certificates and pins throw ``TransportConfigurationError`` when the policy is created.
///
/// ```swift
/// let policy = try ServerTrustPolicy.pinnedPublicKeys(["sha256//r8udi/Mxd6pLO7y7hZyUMWq8YnFnIWXCqeHsTDRqy8c="])
/// let transport = try CurlTransport(serverTrustPolicy: policy)
/// ```
///
/// ``CurlTransport`` enforces every policy. ``URLSessionTransport`` enforces them on Apple platforms
/// (server-trust challenge); on Linux it can only use ``system`` and throws for the others.
///
/// What each policy trusts, the same on both transports that enforce it:
///
/// | Policy | ``CurlTransport`` (libcurl, OpenSSL) | ``URLSessionTransport``, Apple (`SecTrust`) |
/// |---|---|---|
/// | ``system`` | libcurl's CA store (`/etc/ssl/certs`, as `curl` uses) | URLSession's default handling: the system's and user-trusted roots |
/// | ``customRoots(_:)`` | only these, as the anchors of a chain; the system's roots are not used | the same: `SecTrustSetAnchorCertificates`, then `SecTrustSetAnchorCertificatesOnly(true)` |
/// | ``pinnedCertificates(_:)`` | only these, as anchors; the verified chain therefore contains one | the same anchors, and the evaluated chain must contain one |
/// | ``pinnedPublicKeys(_:roots:)-([PublicKeyPin],_)`` | the system's CA store, or only `roots`; then the leaf's key must match a pin | the system's and user-trusted roots, or only `roots`; then the leaf's key |
///
/// Any one of the certificates given can end a chain: a CA, an intermediate, or the server's own
/// certificate (OpenSSL's partial chains, as libcurl sets them; any anchor in `SecTrust`). The
/// host name is checked unless ``dangerouslyDisablingHostNameVerification()`` was used, and the
/// chain's certificates must be within their validity dates. Apple platforms also apply their own
/// rules for TLS server certificates to every policy (key sizes, SHA-2, the host in the Subject
/// Alternative Name, a `serverAuth` extended key usage; `Docs/Transports.md`).
public struct ServerTrustPolicy: Sendable, Hashable {
    /// Which certificates a server's chain may lead to.
    enum Anchors: Sendable, Hashable {
        /// The platform's trust store.
        case system
        /// Only these certificates (as trust anchors, also when not self-signed); the system's
        /// store is not used, on Linux and on Apple platforms.
        case custom([TLSCertificate])
        /// The same anchors, and the chain must contain one of them.
        case pinned([TLSCertificate])
    }

    let anchors: Anchors
    /// One of these must match the leaf's public key; none means no key pinning.
    let publicKeyPins: [PublicKeyPin]
    /// Whether the certificate must name the host that was connected to.
    public let validatesHostName: Bool

    /// The platform's trust store and host-name verification.
    public static let system = ServerTrustPolicy(anchors: .system, publicKeyPins: [], validatesHostName: true)

    /// Trusts servers whose chain leads to one of `certificates` (a private CA, or a server's
    /// self-signed certificate) instead of the system's trust store: publicly trusted servers are
    /// then refused, on every platform.
    /// - Throws: ``TransportConfigurationError/emptyTrustPolicy(_:)`` for an empty list.
    public static func customRoots(_ certificates: [TLSCertificate]) throws(TransportConfigurationError) -> Self {
        guard !certificates.isEmpty else { throw .emptyTrustPolicy("customRoots needs at least one certificate") }
        return ServerTrustPolicy(anchors: .custom(certificates), publicKeyPins: [], validatesHostName: true)
    }

    /// Trusts only servers whose verified chain contains one of `certificates` (the leaf, an
    /// intermediate or the root). The chain is verified against these certificates alone, not the
    /// system's trust store (as ``customRoots(_:)``), on every platform.
    /// - Throws: ``TransportConfigurationError/emptyTrustPolicy(_:)`` for an empty list.
    public static func pinnedCertificates(_ certificates: [TLSCertificate]) throws(TransportConfigurationError) -> Self
    {
        guard !certificates.isEmpty else {
            throw .emptyTrustPolicy("pinnedCertificates needs at least one certificate")
        }
        return ServerTrustPolicy(anchors: .pinned(certificates), publicKeyPins: [], validatesHostName: true)
    }

    /// Trusts only servers whose leaf public key matches one of `pins`, after verifying the chain
    /// against `roots` (the system's trust store when `nil`). A pin adds no trust of its own.
    /// - Throws: ``TransportConfigurationError/emptyTrustPolicy(_:)`` for no pins or an empty
    ///   `roots`.
    public static func pinnedPublicKeys(
        _ pins: [PublicKeyPin], roots: [TLSCertificate]? = nil
    ) throws(TransportConfigurationError) -> Self {
        guard !pins.isEmpty else { throw .emptyTrustPolicy("pinnedPublicKeys needs at least one pin") }
        var anchors = Anchors.system
        if let roots { anchors = try customRoots(roots).anchors }
        return ServerTrustPolicy(anchors: anchors, publicKeyPins: pins, validatesHostName: true)
    }

    /// Trusts only servers whose leaf public key matches one of these pins (base64 SHA-256 of the
    /// SPKI, with or without `sha256//`), after verifying the chain against `roots`.
    /// - Throws: ``TransportConfigurationError/malformedPublicKeyPin(_:)`` for a malformed pin,
    ///   ``TransportConfigurationError/emptyTrustPolicy(_:)`` for none.
    public static func pinnedPublicKeys(
        _ pins: [String], roots: [TLSCertificate]? = nil
    ) throws(TransportConfigurationError) -> Self {
        var parsed: [PublicKeyPin] = []
        for pin in pins { parsed.append(try PublicKeyPin(pin)) }
        return try pinnedPublicKeys(parsed, roots: roots)
    }

    /// The same policy without host-name verification: any host presenting a trusted certificate
    /// is accepted. **Only for tests** against servers whose certificate names another host.
    public func dangerouslyDisablingHostNameVerification() -> ServerTrustPolicy {
        ServerTrustPolicy(anchors: anchors, publicKeyPins: publicKeyPins, validatesHostName: false)
    }

    /// Whether this is exactly the platform's default evaluation.
    var isSystemDefault: Bool { self == .system }
}
