import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The single delegate of ``URLSessionTransport``'s session: routes callbacks to transfers by
/// task identifier and answers authentication challenges.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let transfers = Locked([Int: SessionTransfer]())
    /// Applied to server-trust challenges (Apple platforms only; Linux never presents them).
    private let trustPolicy: ServerTrustPolicy
    /// Presented in client-certificate challenges (Apple platforms only; always `nil` on Linux).
    private let clientCredential: URLCredential?

    init(trustPolicy: ServerTrustPolicy = .system, clientCredential: URLCredential? = nil) {
        self.trustPolicy = trustPolicy
        self.clientCredential = clientCredential
    }

    var activeCount: Int { transfers.withLock { $0.count } }

    func register(_ transfer: SessionTransfer, for identifier: Int) {
        transfers.withLock { $0[identifier] = transfer }
    }

    func unregister(_ identifier: Int) {
        transfers.withLock { _ = $0.removeValue(forKey: identifier) }
    }

    func transfer(for task: URLSessionTask) -> SessionTransfer? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let transfer = transfer(for: dataTask) else {
            completionHandler(.cancel)
            return
        }
        completionHandler(transfer.didReceive(response: response) ? .allow : .cancel)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let transfer = transfer(for: task) else {
            completionHandler(nil)
            return
        }
        // The rule is checked against the `Location` the server sent: FoundationNetworking has
        // already rewritten `request` (a `file:` location into a path on the same origin).
        let (next, failure) = transfer.redirect(
            response, location: response.value(forHTTPHeaderField: "Location"), proposed: request)
        completionHandler(next)
        if let failure { transfer.fail(failure) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(for: dataTask)?.didReceive(data: data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        transfer(for: task)?.didSend(totalBytesSent: totalBytesSent, totalBytesExpectedToSend: totalBytesExpectedToSend)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        transfer(for: task)?.didComplete(error: error)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        // Linux: no server-trust challenge ever arrives, and an unanswered or default-handled
        // Basic/Digest challenge hangs the task. Refuse it and report the 401/407 that was
        // already received as the response.
        transfer(for: task)?.didRefuseChallenge()
        completionHandler(.cancelAuthenticationChallenge, nil)
        #else
        #if canImport(Security)
        if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
            !trustPolicy.isSystemDefault
        {
            func refuse(_ reason: String) {
                let message = "The server's certificate does not satisfy the trust policy (\(reason))."
                transfer(for: task)?.fail(TransportError(.tls, message: message))
                completionHandler(.cancelAuthenticationChallenge, nil)
            }
            // Fails closed: without a SecTrust to check, the policy cannot be satisfied.
            guard let trust = challenge.protectionSpace.serverTrust else {
                return refuse("the challenge carries no server trust")
            }
            if let rejection = trustPolicy.rejection(of: trust, host: challenge.protectionSpace.host) {
                return refuse(rejection)
            }
            completionHandler(.useCredential, URLCredential(trust: trust))
            return
        }
        if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodClientCertificate,
            let clientCredential
        {
            completionHandler(.useCredential, clientCredential)
            return
        }
        #endif
        completionHandler(.performDefaultHandling, nil)
        #endif
    }
}
