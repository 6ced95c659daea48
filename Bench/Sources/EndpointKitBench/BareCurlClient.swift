#if os(Linux) && canImport(CCurlShimAPI)
import CCurlShimAPI
import Foundation

/// libcurl driven from Swift with nothing else: the floor under EndpointKit+libcurl in scenarios 1
/// and 2 (the transport issue's "bare prototype"). One thread drives a multi handle; a caller
/// hands it a pooled easy handle (only URL, write callback and `NOSIGNAL` set) and awaits a
/// continuation resumed with the body, which it decodes. No request building, headers, limits,
/// deadlines, redirects, validation or error classification: it shows what libcurl and one
/// thread handoff each way cost on this machine.
///
/// Given `headerLines`, every request also sends them (one header list, made once) and has
/// libcurl decode what it accepts (`CURLOPT_ACCEPT_ENCODING`): with the lines EndpointKit's
/// transport sends, the floor under the same request on the wire (`--instructions`).
final class BareCurlClient: Sendable {
    private let loop: Loop
    private let url: String
    private let decoder = JSONDecoder()

    /// Starts the loop thread; `nil` when libcurl cannot be loaded.
    init?(url: URL, headerLines: [String] = []) {
        guard let loop = Loop(headerLines: headerLines) else { return nil }
        self.loop = loop
        self.url = url.absoluteString
    }

    deinit { loop.stop() }

    /// `GET url`, decoded.
    func user() async throws -> UserModel {
        try decoder.decode(UserModel.self, from: try await loop.fetch(url))
    }

    /// The thread and its multi handle; the thread keeps it alive until ``stop()``.
    private final class Loop: @unchecked Sendable {
        final class Transfer {
            let easy: UnsafeMutableRawPointer
            var body = Data()
            var continuation: CheckedContinuation<Data, any Error>?
            init(easy: UnsafeMutableRawPointer) { self.easy = easy }
        }

        private let multi: UnsafeMutableRawPointer
        private let lock = NSLock()
        // Guarded by `lock`.
        private var inbox: [Transfer] = []
        private var idle: [UnsafeMutableRawPointer] = []
        private var isWaiting = false
        private var isStopping = false
        // Loop thread only.
        private var active: [UnsafeMutableRawPointer: Transfer] = [:]

        /// The extra header lines as one `curl_slist` (`nil` without any); freed when the loop ends.
        private let headerList: UnsafeMutableRawPointer?

        init?(headerLines: [String]) {
            guard ek_curl_load() == nil, let multi = ek_curl_multi_init() else { return nil }
            self.multi = multi
            var list: UnsafeMutableRawPointer?
            for line in headerLines { list = ek_curl_slist_append(list, line) }
            headerList = list
            Thread { [self] in run() }.start()
        }

        func stop() {
            lock.withLock {
                isStopping = true
                _ = ek_curl_multi_wakeup(multi)
            }
        }

        func fetch(_ url: String) async throws -> Data {
            guard let easy = lock.withLock({ idle.popLast() }) ?? ek_curl_easy_init() else {
                throw BenchError.requestFailed("curl_easy_init failed")
            }
            let transfer = Transfer(easy: easy)
            _ = ek_curl_easy_setopt_pointer(easy, 10_002, url)  // CURLOPT_URL
            _ = ek_curl_easy_setopt_long(easy, 99, 1)  // CURLOPT_NOSIGNAL
            if let headerList {
                _ = ek_curl_easy_setopt_pointer(easy, 10_023, headerList)  // CURLOPT_HTTPHEADER
                _ = ek_curl_easy_setopt_pointer(easy, 10_102, "")  // CURLOPT_ACCEPT_ENCODING
            }
            _ = ek_curl_easy_setopt_pointer(easy, 10_001, Unmanaged.passUnretained(transfer).toOpaque())
            _ = ek_curl_easy_setopt_data_callback(easy, 20_011) { data, size, count, context in
                guard let data, let context else { return 0 }
                Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().body.append(
                    UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: size * count)
                return size * count
            }
            defer { lock.withLock { idle.append(easy) } }
            return try await withCheckedThrowingContinuation { continuation in
                transfer.continuation = continuation
                lock.withLock {
                    inbox.append(transfer)
                    if isWaiting {
                        isWaiting = false
                        _ = ek_curl_multi_wakeup(multi)
                    }
                }
            }
        }

        private func run() {
            ek_curl_block_sigpipe_in_this_thread()
            while true {
                let (added, stopping) = lock.withLock {
                    defer { inbox = [] }
                    return (inbox, isStopping)
                }
                for transfer in added {
                    _ = ek_curl_multi_add_handle(multi, transfer.easy)
                    active[transfer.easy] = transfer
                }
                if stopping { break }
                var running: Int32 = 0
                _ = ek_curl_multi_perform(multi, &running)
                var easy: UnsafeMutableRawPointer?
                var code: Int32 = 0
                while ek_curl_multi_next_done(multi, &easy, &code) == 1, let handle = easy {
                    _ = ek_curl_multi_remove_handle(multi, handle)
                    active.removeValue(forKey: handle).map { complete($0, code == 0 ? nil : "libcurl error \(code)") }
                }
                let wait = lock.withLock {
                    isWaiting = inbox.isEmpty && !isStopping
                    return isWaiting
                }
                if wait {
                    _ = ek_curl_multi_poll(multi, 1000)
                    lock.withLock { isWaiting = false }
                }
            }
            for transfer in active.values {
                _ = ek_curl_multi_remove_handle(multi, transfer.easy)
                complete(transfer, "the client stopped")
            }
            // Handles still held by callers go back to `idle` after this and are not freed: the
            // client only stops when the bench is done with it.
            for easy in lock.withLock({ idle }) { ek_curl_easy_cleanup(easy) }
            _ = ek_curl_multi_cleanup(multi)
            ek_curl_slist_free_all(headerList)
        }

        private func complete(_ transfer: Transfer, _ failure: String?) {
            if let failure {
                transfer.continuation?.resume(throwing: BenchError.requestFailed(failure))
            } else {
                transfer.continuation?.resume(returning: transfer.body)
            }
            transfer.continuation = nil
        }
    }
}
#endif
