// Runs other processes (`Process`), which iOS, tvOS and watchOS do not have.
#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitOutbox
import EndpointKitTestServer
import Foundation
import XCTest

/// The outbox in a child process killed with SIGKILL at seeded random moments (while it enqueues,
/// while the server holds a request it applied, just after the server answered), then started
/// again on the same directory, cycle after cycle; at the end a child that is not killed drains
/// what is left. Every entry whose enqueue returned must be applied exactly once (by key), and no
/// entry more than once.
///
/// 50 cycles by default; `ENDPOINTKIT_OUTBOX_KILL_CYCLES=1000` for the long run
/// (`ENDPOINTKIT_OUTBOX_KILL_SEED` changes the seed, 28 by default). It prints one line:
/// `outbox kill test: cycles N, entries M, lost L, applied twice D, sent again K`, where M counts the
/// entries whose enqueue returned and K the requests that repeated a key already received.
final class OutboxKillTests: OutboxTestCase {
    /// Where a cycle's kill lands.
    enum Moment {
        /// After the child printed `lines` "enqueued" lines (0: during its start), and
        /// `microseconds` more.
        case duringEnqueue(lines: Int, microseconds: UInt32)
        /// When the server holds the cycle's `receipt`-th request, applied but not answered.
        case midSend(receipt: Int)
        /// `microseconds` after the server answered the cycle's `receipt`-th request: before or after
        /// the outbox recorded the answer.
        case afterAnswer(receipt: Int, microseconds: Int)
        /// `milliseconds` after the start, whatever the child is doing.
        case anyTime(milliseconds: Int)

        static func random(entries: Int, using random: inout SeededGenerator) -> Moment {
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                return .duringEnqueue(
                    lines: Int.random(in: 0...entries, using: &random),
                    microseconds: UInt32.random(in: 0...3000, using: &random))
            case 1: return .midSend(receipt: Int.random(in: 1...3, using: &random))
            case 2:
                return .afterAnswer(
                    receipt: Int.random(in: 1...3, using: &random),
                    microseconds: Int.random(in: 0...4000, using: &random))
            default: return .anyTime(milliseconds: Int.random(in: 0...250, using: &random))
            }
        }
    }

    /// The cycle the server's observer acts on.
    struct Cycle {
        var moment: Moment?
        var receipts = 0
        var child: OutboxChild?
    }

    func testThatEveryEntryWhoseEnqueueReturnedIsAppliedOnceAcrossSIGKILLs() throws {
        let environment = ProcessInfo.processInfo.environment
        let cycles = environment["ENDPOINTKIT_OUTBOX_KILL_CYCLES"].flatMap { Int($0) } ?? 50
        var random = SeededGenerator(seed: environment["ENDPOINTKIT_OUTBOX_KILL_SEED"].flatMap { UInt64($0) } ?? 28)
        let executable = try OutboxChild.executable()
        let cycle = Locked(Cycle())
        ledger.observe { _ in
            let (moment, receipts, child) = cycle.withLock { state -> (Moment?, Int, OutboxChild?) in
                state.receipts += 1
                return (state.moment, state.receipts, state.child)
            }
            switch moment {
            case .midSend(let receipt) where receipt == receipts: child?.kill()
            case .afterAnswer(let receipt, let microseconds) where receipt == receipts:
                DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(microseconds)) { child?.kill() }
            default: break
            }
        }
        let arguments = [
            "--directory", directory.path, "--base-url", server.baseURL.absoluteString, "--path", "/apply",
        ]

        var attempted = Set<Int>()
        var returned = Set<Int>()
        var next = 0
        var killed = 0
        for _ in 0..<cycles {
            let count = Int.random(in: 0...4, using: &random)
            let moment = Moment.random(entries: count, using: &random)
            cycle.withLock { $0 = Cycle(moment: moment) }
            let lines = Locked(0)
            let child = try OutboxChild(
                executable, arguments: arguments + ["--first", "\(next)", "--count", "\(count)"]
            ) { line in
                guard case .duringEnqueue(let wanted, let microseconds) = moment, wanted > 0, line.hasPrefix("enqueued")
                else { return }
                if lines.withLock({ seen -> Bool in
                    seen += 1
                    return seen == wanted
                }) {
                    usleep(microseconds)
                    cycle.value.child?.kill()
                }
            }
            cycle.withLock { $0.child = child }
            switch moment {
            case .duringEnqueue(0, let microseconds):
                DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int(microseconds) * 10)) {
                    child.kill()
                }
            case .anyTime(let milliseconds):
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { child.kill() }
            default: break
            }
            XCTAssertTrue(child.waitForExit(timeout: 30), "a child did not end: \(child.output)")
            cycle.withLock { $0 = Cycle() }
            if child.wasKilled { killed += 1 } else { XCTAssertEqual(child.output.last, "drained", "\(child.output)") }
            attempted.formUnion(next..<next + count)
            returned.formUnion(child.enqueued)
            next += count
        }

        // The last run is not killed: it sends whatever is left and exits.
        let last = try OutboxChild(executable, arguments: arguments)
        XCTAssertTrue(last.waitForExit(timeout: 60), "the last child did not drain: \(last.output)")
        XCTAssertEqual(last.output.last, "drained")

        var applications: [Int: Int] = [:]
        for number in appliedNumbers { applications[number, default: 0] += 1 }
        let lost = returned.filter { applications[$0] == nil }.count
        let twice = applications.values.filter { $0 > 1 }.count
        let receipts = ledger.receipts
        let sentAgain = receipts.count - Set(receipts.map(\.key)).count
        print(
            "outbox kill test: cycles \(cycles), entries \(returned.count), lost \(lost), applied twice \(twice), sent again \(sentAgain)"
        )

        XCTAssertEqual(lost, 0, "entries whose enqueue returned but that never reached the server")
        XCTAssertEqual(twice, 0, "entries the server applied more than once")
        XCTAssertTrue(Set(applications.keys).isSubset(of: attempted))
        XCTAssertEqual(files(in: "entries"), [])
        XCTAssertEqual(files(in: "damaged"), [])
        // The kills did land: most cycles ended in one, and some entries had to be sent again.
        XCTAssertGreaterThan(killed, cycles / 3)
        if cycles >= 50 { XCTAssertGreaterThan(sentAgain, 0) }
    }
}
#endif
