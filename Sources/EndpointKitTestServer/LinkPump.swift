import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bandwidth of one direction of a ``LinkImpairer``, shared by all its connections: each
/// write books the next free slot of the wire, `bytes / bytesPerSecond` long.
final class LinkPacer: Sendable {
    private let bytesPerSecond: Int?
    private let nextFree = Locked<ContinuousClock.Instant?>(nil)

    init(bytesPerSecond: Int?) {
        self.bytesPerSecond = bytesPerSecond
    }

    /// Books `bytes` on the wire.
    /// - Returns: when they may be written (`now` when the wire is free or uncapped).
    func book(_ bytes: Int, now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        guard let bytesPerSecond else { return now }
        return nextFree.withLock { nextFree in
            let start = max(now, nextFree ?? now)
            nextFree = start.advanced(by: .seconds(Double(bytes) / Double(bytesPerSecond)))
            return start
        }
    }
}

/// One direction of an ``ImpairedLink``, on its own thread: reads what one end sends, holds each
/// piece for the direction's latency and jitter, and writes it to the other end at the pace of
/// the direction's bandwidth, in order, up to the link's next fault.
///
/// It reads ahead at most `capacity` bytes (about twice what the link holds in flight), so a
/// sender feels the link's pace as TCP back-pressure rather than filling the impairer's memory.
struct LinkPump {
    private struct Piece {
        var bytes: [UInt8]
        var sent = 0
        let due: ContinuousClock.Instant
        var slot: ContinuousClock.Instant?
    }

    /// The longest a pump sleeps before it looks at its link again (a reset or stop by another thread).
    private static let longestWaitMilliseconds: Int32 = 100
    private static let readSize = 64 * 1024

    private let link: ImpairedLink
    private let source: Int32
    private let destination: Int32
    private let direction: LinkDirection
    private let isUpload: Bool
    private let pacer: LinkPacer
    private let capacity: Int
    private let clock = ContinuousClock()
    private var generator: SeededGenerator
    private var pieces: [Piece] = []
    private var head = 0
    private var queued = 0
    private var lastDue: ContinuousClock.Instant
    private var sourceEnded = false

    init(link: ImpairedLink, upload: Bool, pacer: LinkPacer, seed: UInt64) {
        self.link = link
        isUpload = upload
        source = upload ? link.clientFD : link.serverFD
        destination = upload ? link.serverFD : link.clientFD
        direction = upload ? link.profile.upload : link.profile.download
        self.pacer = pacer
        generator = SeededGenerator(seed: seed)
        let inFlight = Double(direction.bytesPerSecond ?? 4_000_000) * (direction.latency + direction.jitter)
        capacity = max(256 * 1024, Int(min(inFlight * 2, 64e6)))
        lastDue = clock.now
    }

    /// Forwards until both ends are done in this direction or the link ends, then tells the link.
    mutating func run() {
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        while !link.isAborted {
            guard turn(&buffer) else { break }
        }
        link.pumpFinished()
    }

    /// One wait for the socket events or the time that matter now, and what follows.
    /// - Returns: `false` when this direction is finished.
    private mutating func turn(_ buffer: inout [UInt8]) -> Bool {
        let now = clock.now
        var wait = Self.longestWaitMilliseconds
        switch link.hold(at: now) {
        case .forever, .until:
            // Stalled or half-open: forward nothing, but notice an end that gives up and closes.
            if Socket.peerHasClosed(source) || Socket.peerHasClosed(destination) {
                link.abort(reset: true)
                return false
            }
            if case .until(let end) = link.hold(at: now) { wait = min(wait, milliseconds(from: now, to: end)) }
            _ = Socket.waitForEvents([], timeoutMilliseconds: max(wait, 1))
            return true
        case .none:
            break
        }
        var blocked = false
        if head < pieces.count {
            if pieces[head].due <= now {
                let slot = pieces[head].slot ?? pacer.book(pieces[head].bytes.count - pieces[head].sent, now: now)
                pieces[head].slot = slot
                if slot <= now {
                    switch writeHead() {
                    case .failed: return fail()
                    case .blocked: blocked = true
                    case .progressed: wait = 0
                    }
                } else {
                    wait = min(wait, milliseconds(from: now, to: slot))
                }
            } else {
                wait = min(wait, milliseconds(from: now, to: pieces[head].due))
            }
        } else if sourceEnded {
            Socket.shutdownWrite(destination)  // everything forwarded: pass the end of stream on
            return false
        }
        let wantsRead = !sourceEnded && queued < capacity
        let events = Socket.waitForEvents(
            [(wantsRead ? source : -1, Int16(POLLIN)), (blocked ? destination : -1, Int16(POLLOUT))],
            timeoutMilliseconds: wait)
        if wantsRead && events[0] != 0 {
            guard read(&buffer) else { return fail() }
        }
        return true
    }

    /// An end reset the connection or vanished: reset the other one too.
    private func fail() -> Bool {
        link.abort(reset: true)
        return false
    }

    private enum WriteOutcome {
        case progressed
        case blocked
        case failed
    }

    /// Writes as much of the first piece as the socket takes, up to the link's next fault.
    private mutating func writeHead() -> WriteOutcome {
        let allowed = min(pieces[head].bytes.count - pieces[head].sent, link.bytesBeforeNextFault)
        guard allowed > 0 else { return .progressed }  // a fault just happened: the next turn sees it
        let offset = pieces[head].sent
        let destination = destination
        let result = pieces[head].bytes.withUnsafeBytes { bytes -> Socket.WriteResult in
            guard let base = bytes.baseAddress else { return .failed }
            return Socket.sendSome(destination, base + offset, count: allowed)
        }
        switch result {
        case .wouldBlock:
            return .blocked
        case .failed:
            return .failed
        case .sent(let count):
            pieces[head].sent += count
            queued -= count
            if pieces[head].sent == pieces[head].bytes.count {
                head += 1
                if head == pieces.count || head >= 4096 {
                    pieces.removeFirst(head)
                    head = 0
                }
            }
            link.didForward(count, upload: isUpload)
            return .progressed
        }
    }

    /// Reads what the source sent and queues it in pieces, each due after the latency and jitter.
    /// - Returns: `false` if the source reset the connection.
    private mutating func read(_ buffer: inout [UInt8]) -> Bool {
        let room = min(buffer.count, capacity - queued)
        let count = buffer.withUnsafeMutableBytes {
            Socket.receive(source, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<room]))
        }
        if count == 0 {
            sourceEnded = true
            return true
        }
        guard count > 0 else { return errno == EAGAIN || errno == EWOULDBLOCK }
        let now = clock.now
        let pieceSize = direction.maximumPieceSize ?? count
        var start = 0
        while start < count {
            let end = min(start + pieceSize, count)
            let delay =
                direction.latency
                + (direction.jitter > 0 ? Double.random(in: 0...direction.jitter, using: &generator) : 0)
            let due = max(lastDue, now.advanced(by: .seconds(delay)))
            lastDue = due
            pieces.append(Piece(bytes: Array(buffer[start..<end]), due: due))
            start = end
        }
        queued += count
        return true
    }

    private func milliseconds(from now: ContinuousClock.Instant, to instant: ContinuousClock.Instant) -> Int32 {
        let components = now.duration(to: instant).components
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }
}
