import Dispatch
import Foundation

#if canImport(Network)
import Network
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Watches whether the device can reach a network, like YTK apps' reachability checks.
///
/// On Apple platforms it wraps `NWPathMonitor`. On watchOS the path monitor reports no network
/// for most apps even when requests go through (Apple's TN3135: only some apps may use
/// low-level networking there), so a path without a network is ``Status/unknown`` on watchOS,
/// never ``Status/offline``: a client that fails fast while offline, an ``OfflineRetrier`` and an
/// outbox then send as they would without a monitor. On Linux it looks, every `pollingInterval`
/// seconds, for an interface that is up and running with an address (other than loopback) and
/// for a default route (`/proc/net/route`, `/proc/net/ipv6_route`). ``status`` is the latest
/// reading; ``updates`` follows the changes as an async sequence:
///
/// ```swift
/// Task { @MainActor in
///     for await status in monitor.updates { banner.isHidden = status != .offline }
/// }
/// ```
///
/// Give it to a client with `configuration.connectivity` and `failsFastWhenOffline = true` to
/// fail at once, or answer from the cache, while offline.
public final class ConnectivityMonitor: Sendable {
    /// Whether the network is reachable.
    public enum Status: Sendable, Hashable {
        /// Not determined yet, or not knowable (on watchOS without a usable path; see above).
        case unknown
        /// An interface and a route exist.
        case online
        /// No interface or no route (airplane mode, cable out, an isolated namespace).
        case offline
    }

    private struct State {
        var status = Status.unknown
        var streams: [UUID: AsyncStream<Status>.Continuation] = [:]
        var timer: (any DispatchSourceTimer)?
    }

    /// How often Linux re-checks, in seconds.
    let pollingInterval: TimeInterval
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "EndpointKit.ConnectivityMonitor")
    #if canImport(Network)
    private let pathMonitor = NWPathMonitor()
    #endif

    /// Starts watching the system's network.
    /// - Parameter pollingInterval: Seconds between checks on Linux; 2 by default.
    public convenience init(pollingInterval: TimeInterval = 2) {
        #if canImport(Network)
        self.init(pollingInterval: pollingInterval, usesPathMonitor: true, probe: { .unknown })
        #else
        self.init(pollingInterval: pollingInterval, usesPathMonitor: false, probe: { ConnectivityMonitor.probe() })
        #endif
    }

    /// Starts watching with a probe of your own (another reachability source, or a test double),
    /// called every `pollingInterval` seconds.
    package convenience init(pollingInterval: TimeInterval = 2, probe: @escaping @Sendable () -> Status) {
        self.init(pollingInterval: pollingInterval, usesPathMonitor: false, probe: probe)
    }

    private init(pollingInterval: TimeInterval, usesPathMonitor: Bool, probe: @escaping @Sendable () -> Status) {
        self.pollingInterval = max(0.05, pollingInterval)
        #if canImport(Network)
        if usesPathMonitor {
            pathMonitor.pathUpdateHandler = { [weak self] path in
                self?.update(Self.status(pathSatisfied: path.status == .satisfied))
            }
            pathMonitor.start(queue: queue)
            return
        }
        #endif
        update(probe())
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + self.pollingInterval, repeating: self.pollingInterval)
        timer.setEventHandler { [weak self] in self?.update(probe()) }
        state.withLock { $0.timer = timer }
        timer.resume()
    }

    deinit {
        #if canImport(Network)
        pathMonitor.cancel()
        #endif
        let (timer, streams) = state.withLock { ($0.timer, Array($0.streams.values)) }
        timer?.cancel()
        for stream in streams { stream.finish() }
    }

    /// The latest status.
    public var status: Status { state.withLock { $0.status } }

    /// Statuses from now on, starting with the current one.
    public var updates: AsyncStream<Status> {
        let (stream, continuation) = AsyncStream<Status>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let id = UUID()
        let current = state.withLock { state -> Status in
            state.streams[id] = continuation
            return state.status
        }
        continuation.yield(current)
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    private func update(_ status: Status) {
        let streams = state.withLock { state -> [AsyncStream<Status>.Continuation]? in
            guard state.status != status else { return nil }
            state.status = status
            return Array(state.streams.values)
        }
        for stream in streams ?? [] { stream.yield(status) }
    }

    /// Whether a path monitor that finds no network means the device is offline: not on watchOS,
    /// where `NWPathMonitor` stays unsatisfied for apps that may not use low-level networking
    /// (TN3135) although URLSession reaches the network.
    #if os(watchOS)
    static let pathMonitorReportsOffline = false
    #else
    static let pathMonitorReportsOffline = true
    #endif

    /// What a path monitor's reading says: online when it found a usable path; offline when it
    /// found none and such a reading can be trusted on this platform, unknown otherwise.
    package static func status(pathSatisfied: Bool, trustingUnsatisfied: Bool = pathMonitorReportsOffline) -> Status {
        if pathSatisfied { return .online }
        return trustingUnsatisfied ? .offline : .unknown
    }

    /// Checks the network once, now (on Linux: interfaces and default routes).
    package static func probe() -> Status {
        #if canImport(Glibc)
        return hasUsableInterface() && hasDefaultRoute() ? .online : .offline
        #else
        return .unknown
        #endif
    }

    #if canImport(Glibc)
    private static func hasUsableInterface() -> Bool {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return false }
        defer { freeifaddrs(list) }
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        let wanted = UInt32(IFF_UP | IFF_RUNNING)
        while let entry = cursor {
            let flags = entry.pointee.ifa_flags
            if flags & wanted == wanted, flags & UInt32(IFF_LOOPBACK) == 0, let address = entry.pointee.ifa_addr,
                [sa_family_t(AF_INET), sa_family_t(AF_INET6)].contains(address.pointee.sa_family)
            {
                return true
            }
            cursor = entry.pointee.ifa_next
        }
        return false
    }

    private static func hasDefaultRoute() -> Bool {
        if let table = try? String(contentsOfFile: "/proc/net/route", encoding: .utf8) {
            for line in table.split(separator: "\n").dropFirst() {
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                if fields.count > 3, fields[0] != "lo", fields[1] == "00000000",
                    (Int(fields[3], radix: 16) ?? 0) & 1 == 1
                {
                    return true
                }
            }
        }
        if let table = try? String(contentsOfFile: "/proc/net/ipv6_route", encoding: .utf8) {
            for line in table.split(separator: "\n") {
                let fields = line.split(separator: " ")
                if fields.count > 9, fields[0] == String(repeating: "0", count: 32), fields[1] == "00",
                    fields[9] != "lo"
                {
                    return true
                }
            }
        }
        return false
    }
    #endif
}
