import Foundation

/// How one direction of an impaired link treats the bytes crossing it: delay, jitter, a bandwidth
/// cap and small pieces.
///
/// ```swift
/// let edge = LinkDirection(latency: 0.15, jitter: 0.05, bytesPerSecond: 50_000, maximumPieceSize: 1400)
/// ```
public struct LinkDirection: Sendable, Hashable {
    /// The one-way delay added to every byte, in seconds.
    public var latency: TimeInterval
    /// The largest extra delay of a piece, in seconds: each piece waits `latency` plus a uniform
    /// random share of `jitter`. Bytes never overtake each other (TCP keeps them in order), so a
    /// piece drawn earlier than the one before it leaves right after it.
    public var jitter: TimeInterval
    /// The bandwidth in bytes per second, shared by every connection of the impairer in this
    /// direction; `nil` for no cap.
    public var bytesPerSecond: Int?
    /// Bytes are forwarded in writes of at most this many bytes (so the receiver sees them arrive
    /// in small pieces); `nil` forwards them as they were read.
    public var maximumPieceSize: Int?

    /// Creates a direction; every impairment is off by default.
    /// - Parameters:
    ///   - latency: The one-way delay in seconds; 0 by default.
    ///   - jitter: The largest extra delay in seconds; 0 by default.
    ///   - bytesPerSecond: The bandwidth cap; `nil` (none) by default.
    ///   - maximumPieceSize: The largest write; `nil` (as read) by default.
    public init(
        latency: TimeInterval = 0, jitter: TimeInterval = 0, bytesPerSecond: Int? = nil, maximumPieceSize: Int? = nil
    ) {
        self.latency = max(0, latency)
        self.jitter = max(0, jitter)
        self.bytesPerSecond = bytesPerSecond.map { max(1, $0) }
        self.maximumPieceSize = maximumPieceSize.map { max(1, $0) }
    }

    /// The same direction with its times multiplied by `factor` and its bandwidth divided by it.
    func scaled(by factor: Double) -> LinkDirection {
        LinkDirection(
            latency: latency * factor, jitter: jitter * factor,
            bytesPerSecond: bytesPerSecond.map { Int((Double($0) / factor).rounded()) },
            maximumPieceSize: maximumPieceSize)
    }
}

/// A named set of impairments for a ``LinkImpairer``: each direction's delay, jitter, bandwidth and
/// piece size, and how often a connection is reset, stalls or goes half-open.
///
/// Faults are counted per mebibyte a connection carries (both directions together), and their
/// byte positions follow from the impairer's seed and the connection's number, so a run with the
/// same seed and the same traffic meets the same faults.
///
/// ```swift
/// let impairer = try LinkImpairer(upstreamPort: server.port, profile: .slowMobile, seed: 7)
/// defer { impairer.stop() }
/// let client = APIClient(baseURL: impairer.baseURL)
/// ```
///
/// | Profile | Round trip | Jitter | Down / up | Pieces | Faults per MiB |
/// | --- | --- | --- | --- | --- | --- |
/// | ``slowMobile`` | 300 ms | 0-60 ms a way | 400 / 200 kbit/s | 1,400 B | 0.5 resets |
/// | ``flakyWiFi`` | 40 ms | 0-40 ms a way | 4 / 2 Mbit/s | 1,400 B | 0.25 resets, 2 stalls of 1-4 s, 0.1 half-open |
/// | ``satellite`` | 1,200 ms | 0-20 ms a way | 2 / 0.5 Mbit/s | 1,400 B | none |
/// | ``handover`` | 60 ms | 0-10 ms a way | 40 / 10 Mbit/s | as read | 0.05 resets |
public struct LinkProfile: Sendable, Hashable, CustomStringConvertible {
    /// A short name, as the bench's `--profile` takes it.
    public var name: String
    /// Client to server.
    public var upload: LinkDirection
    /// Server to client.
    public var download: LinkDirection
    /// The expected number of resets per MiB a connection carries: both ends get a TCP RST, as
    /// when a phone's radio hands over to another cell.
    public var resetsPerMebibyte: Double
    /// The expected number of stalls per MiB: the connection forwards nothing either way for a
    /// time drawn from ``stallDuration``, then goes on.
    public var stallsPerMebibyte: Double
    /// How long a stall lasts, in seconds.
    public var stallDuration: ClosedRange<TimeInterval>
    /// The expected number of times per MiB a connection goes half-open: it stops forwarding for
    /// good without closing either end, until a peer gives up and closes its side.
    public var halfOpensPerMebibyte: Double

    /// Creates a profile; every impairment is off by default.
    public init(
        name: String, upload: LinkDirection = LinkDirection(), download: LinkDirection = LinkDirection(),
        resetsPerMebibyte: Double = 0, stallsPerMebibyte: Double = 0, stallDuration: ClosedRange<TimeInterval> = 0...0,
        halfOpensPerMebibyte: Double = 0
    ) {
        self.name = name
        self.upload = upload
        self.download = download
        self.resetsPerMebibyte = max(0, resetsPerMebibyte)
        self.stallsPerMebibyte = max(0, stallsPerMebibyte)
        self.stallDuration = max(0, stallDuration.lowerBound)...max(0, stallDuration.upperBound)
        self.halfOpensPerMebibyte = max(0, halfOpensPerMebibyte)
    }

    /// No impairment: bytes are forwarded as they come.
    public static let perfect = LinkProfile(name: "perfect")

    /// A slow mobile link (3G, or 4G at the edge of a cell): 300 ms round trip, 400 kbit/s down and
    /// 200 kbit/s up, up to 60 ms of jitter each way, and a reset every 2 MiB on average (handovers).
    public static let slowMobile = LinkProfile(
        name: "slow-mobile",
        upload: LinkDirection(latency: 0.15, jitter: 0.06, bytesPerSecond: 25_000, maximumPieceSize: 1400),
        download: LinkDirection(latency: 0.15, jitter: 0.06, bytesPerSecond: 50_000, maximumPieceSize: 1400),
        resetsPerMebibyte: 0.5)

    /// Flaky Wi-Fi: a short round trip (40 ms) and 4 Mbit/s down, 2 up, but up to 40 ms of jitter
    /// each way, two stalls of 1 to 4 s per MiB, a reset every 4 MiB and a connection gone
    /// half-open every 10 MiB on average.
    public static let flakyWiFi = LinkProfile(
        name: "flaky-wifi",
        upload: LinkDirection(latency: 0.02, jitter: 0.04, bytesPerSecond: 250_000, maximumPieceSize: 1400),
        download: LinkDirection(latency: 0.02, jitter: 0.04, bytesPerSecond: 500_000, maximumPieceSize: 1400),
        resetsPerMebibyte: 0.25, stallsPerMebibyte: 2, stallDuration: 1...4, halfOpensPerMebibyte: 0.1)

    /// A geostationary satellite link: 1.2 s round trip (twice 36,000 km up and down, plus the
    /// ground network), 2 Mbit/s down and 512 kbit/s up, little jitter, no faults.
    public static let satellite = LinkProfile(
        name: "satellite",
        upload: LinkDirection(latency: 0.6, jitter: 0.02, bytesPerSecond: 64_000, maximumPieceSize: 1400),
        download: LinkDirection(latency: 0.6, jitter: 0.02, bytesPerSecond: 250_000, maximumPieceSize: 1400))

    /// A fast mobile link (LTE) that loses its connections at handovers: 60 ms round trip,
    /// 40 Mbit/s down and 10 up, and a reset every 20 MiB on average. For large transfers.
    public static let handover = LinkProfile(
        name: "handover",
        upload: LinkDirection(latency: 0.03, jitter: 0.01, bytesPerSecond: 1_250_000),
        download: LinkDirection(latency: 0.03, jitter: 0.01, bytesPerSecond: 5_000_000),
        resetsPerMebibyte: 0.05)

    /// The named profiles (``perfect`` aside), in the order the documentation lists them.
    public static let named: [LinkProfile] = [.slowMobile, .flakyWiFi, .satellite, .handover]

    /// The profile called `name` (``perfect`` included), or `nil`.
    public static func named(_ name: String) -> LinkProfile? {
        ([.perfect] + named).first { $0.name == name }
    }

    /// The same link on a compressed clock, for short test runs: delays and stalls multiplied by
    /// `factor`, bandwidth divided by it (so a transfer takes `factor` times as long); fault rates
    /// and piece sizes stay. `scaled(by: 0.1)` of ``slowMobile`` is a 30 ms round trip at 4 Mbit/s.
    public func scaled(by factor: Double) -> LinkProfile {
        let factor = max(factor, 1e-6)
        var copy = self
        copy.upload = upload.scaled(by: factor)
        copy.download = download.scaled(by: factor)
        copy.stallDuration = stallDuration.lowerBound * factor...stallDuration.upperBound * factor
        return copy
    }

    /// The same link with its fault rates multiplied by `factor`, so that a run carrying less
    /// data meets as many faults: `withFaults(scaledBy: 50)` of ``slowMobile`` resets every 40 KiB
    /// on average.
    public func withFaults(scaledBy factor: Double) -> LinkProfile {
        var copy = self
        copy.resetsPerMebibyte = resetsPerMebibyte * max(0, factor)
        copy.stallsPerMebibyte = stallsPerMebibyte * max(0, factor)
        copy.halfOpensPerMebibyte = halfOpensPerMebibyte * max(0, factor)
        return copy
    }

    /// The name and numbers on one line.
    public var description: String {
        func direction(_ link: LinkDirection) -> String {
            let rate = link.bytesPerSecond.map { "\($0 * 8 / 1000) kbit/s" } ?? "uncapped"
            return "\(Int((link.latency * 1000).rounded())) ms +0-\(Int((link.jitter * 1000).rounded())) ms, \(rate)"
        }
        var faults: [String] = []
        if resetsPerMebibyte > 0 { faults.append("\(resetsPerMebibyte) resets/MiB") }
        if stallsPerMebibyte > 0 {
            faults.append(
                "\(stallsPerMebibyte) stalls/MiB of \(stallDuration.lowerBound)-\(stallDuration.upperBound) s")
        }
        if halfOpensPerMebibyte > 0 { faults.append("\(halfOpensPerMebibyte) half-opens/MiB") }
        return "\(name): down \(direction(download)); up \(direction(upload))"
            + (faults.isEmpty ? "" : "; " + faults.joined(separator: ", "))
    }
}
