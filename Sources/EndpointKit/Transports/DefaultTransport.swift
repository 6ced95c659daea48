extension APIClient.Configuration {
    /// A new instance of the platform's default transport.
    ///
    /// On Linux, a ``CurlTransport``: it passes the same conformance suite as URLSession, is several
    /// times faster there, enforces every ``ServerTrustPolicy`` and true total deadlines. If libcurl
    /// cannot be loaded, a ``URLSessionTransport``. Elsewhere, a ``URLSessionTransport``.
    ///
    /// URLSession stays one line away: `configuration.transport = URLSessionTransport()`.
    public static func makeDefaultTransport() -> any Transport {
        #if os(Linux) && canImport(CCurlShim)
        if let transport = try? CurlTransport() { return transport }
        #endif
        return URLSessionTransport()
    }
}
