import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default ``Transport``: one `URLSession` with one session-level delegate.
///
/// Built around what URLSession does on Linux (see `Docs/Architecture.md`):
/// - a single session delegate with a registry of transfers, because per-task delegates miss
///   callbacks there;
/// - every authentication challenge is answered, because an unanswered `Basic` 401 hangs forever;
///   the 401 is then reported as a normal response;
/// - ``Timeouts``: the idle limit is URLSession's request timeout (whole seconds on Linux); the
///   total deadline is a timer kept here, because `timeoutIntervalForResource` is ignored; the
///   connect limit is a timer that runs until the first sign of the server (URLSession reports no
///   connection event);
/// - a cap on the in-memory body size, enforced as bytes arrive.
public final class URLSessionTransport: Transport {
    let session: URLSession
    private let delegate: SessionDelegate
    /// Where requests' cookies come from when the transport picks them itself: on Linux, where
    /// FoundationNetworking sends every cookie of the host (see ``StoredCookies``).
    private let cookieStorage: HTTPCookieStorage?
    /// Where the cookies responses set are stored when the transport stores them itself: on
    /// Linux, within ``StoredCookies``' limits (FoundationNetworking's storage has none).
    private let setCookieStorage: HTTPCookieStorage?

    /// Creates a transport with its own session.
    /// - Parameter configuration: The session configuration; `.default` by default, with
    ///   `URLCache` switched off (EndpointKit caches itself; URLCache stores nothing on Linux).
    public convenience init(configuration: URLSessionConfiguration = .default) {
        self.init(configuration: configuration, checkedTrustPolicy: .system)
    }

    /// Creates a transport that checks servers' certificates with `serverTrustPolicy`.
    ///
    /// On Apple platforms the policy is applied in the session's server-trust challenge. On Linux
    /// URLSession never presents that challenge, so only ``ServerTrustPolicy/system`` is possible
    /// there; use ``CurlTransport`` for the others.
    /// - Parameters:
    ///   - configuration: The session configuration; `.default` by default.
    ///   - serverTrustPolicy: How servers' certificates are checked.
    /// - Throws: ``TransportConfigurationError/unsupportedTrustPolicy(_:)`` on Linux for any policy
    ///   but ``ServerTrustPolicy/system``;
    ///   ``TransportConfigurationError/malformedCertificate(_:)`` on Apple platforms if the Security
    ///   framework cannot read one of the policy's certificates.
    public convenience init(
        configuration: URLSessionConfiguration = .default, serverTrustPolicy: ServerTrustPolicy
    ) throws(TransportConfigurationError) {
        try Self.check(serverTrustPolicy)
        self.init(configuration: configuration, checkedTrustPolicy: serverTrustPolicy)
    }

    /// Throws for a policy this platform's URLSession cannot enforce.
    private static func check(_ policy: ServerTrustPolicy) throws(TransportConfigurationError) {
        #if canImport(FoundationNetworking)
        guard policy.isSystemDefault else {
            throw .unsupportedTrustPolicy(
                "URLSession on Linux has no server-trust challenge, so it cannot pin or trust custom roots; "
                    + "use CurlTransport")
        }
        #elseif canImport(Security)
        guard policy.securityCertificates != nil else {
            throw .malformedCertificate("the Security framework cannot read a certificate of the trust policy")
        }
        #endif
    }

    /// Creates a transport that presents `clientCertificate` to servers that ask for one (mutual
    /// TLS), in the session's client-certificate challenge.
    ///
    /// Apple platforms only, with a certificate made from a `SecIdentity`
    /// (`ClientCertificate(identity:intermediates:)`); this path is not exercised by the project's
    /// CI, which has no keychain identity. URLSession on Linux presents no client certificate: use
    /// ``CurlTransport``, which takes PEM files.
    ///
    /// ```swift
    /// let transport = try URLSessionTransport(clientCertificate: ClientCertificate(identity: identity))
    /// ```
    /// - Parameters:
    ///   - configuration: The session configuration; `.default` by default.
    ///   - serverTrustPolicy: How servers' certificates are checked; ``ServerTrustPolicy/system`` by
    ///     default.
    ///   - clientCertificate: The identity presented.
    /// - Throws: ``TransportConfigurationError/unusableClientCertificate(_:_:)`` on Linux, or for a
    ///   certificate made from PEM text; ``TransportConfigurationError/malformedCertificate(_:)`` if
    ///   the Security framework cannot read one of the policy's certificates.
    public convenience init(
        configuration: URLSessionConfiguration = .default, serverTrustPolicy: ServerTrustPolicy = .system,
        clientCertificate: ClientCertificate
    ) throws(TransportConfigurationError) {
        #if canImport(FoundationNetworking)
        throw .unusableClientCertificate(
            .unsupportedByTransport,
            "URLSession on Linux cannot present a client certificate (\(clientCertificate)); use CurlTransport")
        #else
        guard let credential = clientCertificate.credential else {
            throw .unusableClientCertificate(
                .unsupportedByTransport,
                "URLSession presents a SecIdentity, not PEM text (\(clientCertificate)); use CurlTransport")
        }
        try Self.check(serverTrustPolicy)
        self.init(
            configuration: configuration, checkedTrustPolicy: serverTrustPolicy, clientCredential: credential)
        #endif
    }

    private init(
        configuration: URLSessionConfiguration, checkedTrustPolicy: ServerTrustPolicy,
        clientCredential: URLCredential? = nil
    ) {
        let configuration = configuration.copy() as? URLSessionConfiguration ?? configuration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        #if canImport(FoundationNetworking)
        // The transport picks the cookies to send, and stores those responses set within limits.
        cookieStorage = configuration.httpShouldSetCookies ? configuration.httpCookieStorage : nil
        setCookieStorage =
            configuration.httpCookieAcceptPolicy == .never ? nil : configuration.httpCookieStorage
        configuration.httpShouldSetCookies = false
        configuration.httpCookieStorage = nil
        #else
        cookieStorage = nil
        setCookieStorage = nil
        #endif
        let delegate = SessionDelegate(trustPolicy: checkedTrustPolicy, clientCredential: clientCredential)
        let queue = OperationQueue()
        queue.name = "EndpointKit.URLSessionTransport"
        queue.maxConcurrentOperationCount = 1
        self.delegate = delegate
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit { session.invalidateAndCancel() }

    /// The number of transfers in flight.
    @_spi(Internal) public var activeTransferCount: Int { delegate.activeCount }

    /// Starts a data task for the request; see ``Transport/execute(_:completion:)``.
    public func execute(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any TransportTask {
        guard let url = request.urlRequest.url, let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https"
        else {
            // URLSession on Linux hands other schemes (ftp, file) to libcurl, which may hang on them.
            let error = TransportError(
                .unsupportedURL,
                message: "Only http and https URLs are supported (\(request.urlRequest.url?.scheme ?? "none")).")
            DispatchQueue.global().async { completion(.failure(error)) }
            return FinishedTransportTask()
        }
        // The last check before bytes leave: an adapted or hand-made request may hold anything.
        if let violation = HeaderFieldRules.refusal(of: request.urlRequest) {
            DispatchQueue.global().async { completion(.failure(violation)) }
            return FinishedTransportTask()
        }
        let transfer = SessionTransfer(
            request: request, cookieStorage: cookieStorage, setCookieStorage: setCookieStorage, completion: completion)
        transfer.onFollowUp = { [weak self] transfer, next in
            self?.start(transfer, sending: transfer.carryingStoredCookies(next), bodyFile: request.bodyFile)
        }
        transfer.armTimers()
        let first = transfer.carryingStoredCookies(request.urlRequest, firstHop: (url, scheme == "https"))
        start(transfer, sending: first, bodyFile: request.bodyFile)
        return transfer
    }

    /// Creates, registers and resumes a task for the transfer (again, for a redirect it follows
    /// itself).
    private func start(_ transfer: SessionTransfer, sending request: URLRequest, bodyFile: URL?) {
        var urlRequest = request
        // URLSession's request timeout is an idle timeout: the idle limit, or a week for none.
        var idleTimeout = transfer.timeouts.idleLimit ?? 7 * 86_400
        #if canImport(FoundationNetworking)
        // FoundationNetworking truncates it to whole seconds (0.5 fires at once).
        idleTimeout = max(1, idleTimeout.rounded(.up))
        #endif
        if idleTimeout != urlRequest.timeoutInterval { urlRequest.timeoutInterval = idleTimeout }
        let task: URLSessionTask
        if let bodyFile {
            task = session.uploadTask(with: urlRequest, fromFile: bodyFile)
        } else {
            task = session.dataTask(with: urlRequest)
        }
        // FoundationNetworking keeps the priority without using it, and its setter waits for the
        // session's work queue: on a busy session, a thread hand-off per request for nothing.
        #if !canImport(FoundationNetworking)
        task.priority = transfer.priority.taskPriority
        #endif
        let identifier = task.taskIdentifier
        delegate.register(transfer, for: identifier)
        guard transfer.attach(task, unregister: { [delegate] in delegate.unregister(identifier) }) else {
            delegate.unregister(identifier)
            return
        }
        task.resume()
    }
}

/// The task of a transfer that failed before it started; cancelling it does nothing.
struct FinishedTransportTask: TransportTask {
    func cancel() {}
}
