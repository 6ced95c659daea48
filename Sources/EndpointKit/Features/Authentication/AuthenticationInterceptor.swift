import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Adds a credential to every request and refreshes it when the server rejects it.
///
/// However many requests fail with 401 at the same time, the credential is refreshed **once**:
/// the others wait for that refresh, then all are sent again with the new credential. Requests
/// that start while a refresh is running wait for it too. If the refresh fails, every waiting
/// request completes with its own 401 ``ServerFailure``. A request is re-sent after a refresh at
/// most once, so a server that keeps answering 401 cannot cause a refresh loop.
///
/// A credential that knows when it expires can be refreshed before it is sent
/// (Alamofire's `requiresRefresh`): pass `requiresRefresh`, and a request about to go out with a
/// credential it flags waits for one refresh (shared by every request that finds it so) and is
/// sent with the new one. If that refresh fails, the request goes out with the old credential
/// and the server decides. A refreshed credential that is still flagged is not refreshed again
/// before sending (a refresher that cannot do better is not called for every request); a 401
/// still refreshes it.
///
/// ```swift
/// let auth = AuthenticationInterceptor<OAuthToken>(
///     credential: storedToken,
///     apply: { token, request in request.setValue("Bearer \(token.access)", forHTTPHeaderField: "Authorization") },
///     refresh: { token in try await AuthAPI.refresh(token?.refresh) })
/// let client = APIClient(baseURL: url) { $0.interceptors = [auth] }
/// ```
public final class AuthenticationInterceptor<Credential: Sendable>: RequestInterceptor {
    private struct State {
        var credential: Credential?
        var refresh: Task<Credential, any Error>?
        var refreshCount = 0
        /// Bumped whenever the credential changes; a refresh that failed is not tried again for
        /// the same generation, so a broken refresh cannot be hammered by every 401.
        var generation = 0
        var failedGeneration: Int?
        /// The generation whose credential came back from a refresh still flagged by
        /// `requiresRefresh`: not refreshed again before sending.
        var stillFlaggedGeneration: Int?
    }

    private let state: Locked<State>
    private let apply: @Sendable (Credential, inout URLRequest) -> Void
    private let refresher: @Sendable (Credential?) async throws -> Credential
    private let isAuthenticationFailure: @Sendable (APIFailure) -> Bool
    private let requiresRefresh: @Sendable (Credential) -> Bool

    /// Creates the interceptor.
    /// - Parameters:
    ///   - credential: The current credential; `nil` to refresh before the first request.
    ///   - apply: Writes the credential into a request (usually an `Authorization` header).
    ///   - refresh: Gets a new credential from the old one; called once for concurrent failures.
    ///   - requiresRefresh: Whether a credential must be refreshed before it is sent (it is about
    ///     to expire); never by default, so only a rejection refreshes.
    ///   - isAuthenticationFailure: Which failures mean "credential rejected"; HTTP 401 by default.
    public init(
        credential: Credential?, apply: @escaping @Sendable (Credential, inout URLRequest) -> Void,
        refresh: @escaping @Sendable (Credential?) async throws -> Credential,
        requiresRefresh: @escaping @Sendable (Credential) -> Bool = { _ in false },
        isAuthenticationFailure: @escaping @Sendable (APIFailure) -> Bool = { $0.statusCode == 401 }
    ) {
        state = Locked(State(credential: credential))
        self.apply = apply
        refresher = refresh
        self.requiresRefresh = requiresRefresh
        self.isAuthenticationFailure = isAuthenticationFailure
    }

    /// The credential in use.
    public var credential: Credential? { state.withLock { $0.credential } }

    /// How many refreshes have run.
    package var refreshCount: Int { state.withLock { $0.refreshCount } }

    /// Replaces the credential, for example after the user logs in again.
    public func setCredential(_ credential: Credential?) {
        state.withLock { state in
            state.credential = credential
            state.generation += 1
            state.failedGeneration = nil
        }
    }

    /// Applies the current credential, waiting for a refresh in progress (or starting one when
    /// there is no credential yet, or when `requiresRefresh` flags it).
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        let (credential, running, refreshFailed, stillFlagged) = state.withLock { state in
            (
                state.credential, state.refresh, state.failedGeneration == state.generation,
                state.stillFlaggedGeneration == state.generation
            )
        }
        let current: Credential
        if let running {
            // A refresh that fails leaves the old credential: the request is sent with it and gets
            // its own 401, as the requests that started the refresh do.
            if let refreshed = try? await running.value {
                current = refreshed
            } else if let old = state.withLock({ $0.credential }) {
                current = old
            } else {
                throw AuthenticationError.refreshFailed
            }
        } else if let credential {
            if !refreshFailed, !stillFlagged, requiresRefresh(credential) {
                // About to expire: refresh first (joined by every request that finds it so); if
                // that fails, the old credential goes out and the server decides.
                current = (try? await refresh(rejected: credential)) ?? credential
            } else {
                current = credential
            }
        } else if refreshFailed {
            throw AuthenticationError.refreshFailed
        } else {
            current = try await refresh(rejected: nil)
        }
        var request = request
        apply(current, &request)
        return request
    }

    /// Refreshes once for concurrent authentication failures and retries each request once.
    public func retry(
        _ request: URLRequest, failedWith failure: APIFailure, context: RequestContext
    ) async
        -> RetryDecision
    {
        guard isAuthenticationFailure(failure) else { return .noOpinion }
        // A request already re-sent after an authentication failure is not re-sent again.
        guard !context.previousFailures.contains(where: isAuthenticationFailure) else { return .noOpinion }
        let (credential, running, refreshFailed) = state.withLock {
            ($0.credential, $0.refresh, $0.failedGeneration == $0.generation)
        }
        if running == nil, let credential, !wasSent(request, with: credential) {
            return .retry(after: 0)  // refreshed since this request was sent: just send it again
        }
        if running == nil, refreshFailed { return .noOpinion }
        do {
            _ = try await refresh(rejected: credential)
            return .retry(after: 0)
        } catch {
            return .noOpinion
        }
    }

    private func wasSent(_ request: URLRequest, with credential: Credential) -> Bool {
        var probe = request
        apply(credential, &probe)
        return probe.allHTTPHeaderFields == request.allHTTPHeaderFields
    }

    /// Joins the refresh in progress or starts one.
    private func refresh(rejected: Credential?) async throws -> Credential {
        let task = state.withLock { state -> Task<Credential, any Error> in
            if let running = state.refresh { return running }
            let refresher = self.refresher
            let task = Task { try await refresher(rejected) }
            state.refresh = task
            state.refreshCount += 1
            return task
        }
        do {
            let credential = try await task.value
            let flagged = requiresRefresh(credential)
            state.withLock { state in
                if state.refresh == task {
                    state.credential = credential
                    state.generation += 1
                    state.refresh = nil
                    if flagged { state.stillFlaggedGeneration = state.generation }
                }
            }
            return credential
        } catch {
            state.withLock { state in
                if state.refresh == task {
                    state.refresh = nil
                    state.failedGeneration = state.generation
                }
            }
            throw error
        }
    }
}

/// Why ``AuthenticationInterceptor`` could not authenticate a request.
public enum AuthenticationError: Error, Sendable, Hashable {
    /// There is no credential and the last refresh failed; call `setCredential(_:)` (log in).
    case refreshFailed
}
