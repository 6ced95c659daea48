import EndpointKit
import EndpointKitOutbox
import Foundation

// The outbox tests' child process: opens an outbox on a directory (resuming what an earlier,
// killed child left), enqueues numbered entries, and sends until none is waiting.
//
//   EndpointKitOutboxChild --directory DIR --base-url URL [--path /apply] [--first N] [--count C]
//                          [--offline] [--fill] [--pad BYTES] [--exit-after-enqueue]
//
// Each entry is `POST path` with the JSON body {"n": N, "pad": "..."}. It prints one line per event,
// written at once (a SIGKILL loses nothing already printed):
//   enqueued N        the enqueue of entry N returned (the entry is on disk)
//   error NAME        an OutboxError (its case name); without --fill it then prints pending and
//                     exits with status 3
//   pending N         (after an error, or with --exit-after-enqueue) the entries waiting
//   drained           nothing is waiting any more; it exits with status 0
//
// --offline holds sending back (a connectivity monitor that reports no network) until the
// enqueues are done; --fill enqueues until an error (a full disk) and then sends what was stored.

/// A flag the connectivity probe reads from its own thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool
    init(_ value: Bool) { stored = value }
    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// The case of an error, as in `diskFull`.
func name(of error: OutboxError) -> String {
    Mirror(reflecting: error).children.first?.label ?? String(describing: error)
}

guard let directory = option("--directory"), let baseURL = option("--base-url").flatMap(URL.init(string:)) else {
    say("usage: EndpointKitOutboxChild --directory DIR --base-url URL [--first N] [--count C]")
    exit(2)
}
let flags = Set(CommandLine.arguments)
let path = option("--path") ?? "/apply"
let first = option("--first").flatMap { Int($0) } ?? 0
let count = option("--count").flatMap { Int($0) } ?? 0
let pad = String(repeating: "x", count: option("--pad").flatMap { Int($0) } ?? 0)
let fill = flags.contains("--fill")

let online = Flag(!flags.contains("--offline"))
let monitor = ConnectivityMonitor(pollingInterval: 0.05) { online.value ? .online : .offline }
let client = APIClient(baseURL: baseURL) {
    $0.timeouts.connect = 2
    $0.timeouts.total = 5
}
var configuration = Outbox.Configuration()
configuration.initialRetryDelay = 0.05
configuration.maximumRetryDelay = 0.5
configuration.connectivity = monitor

let outbox: Outbox
do throws(OutboxError) {
    outbox = try Outbox(client: client, directory: URL(fileURLWithPath: directory), configuration: configuration)
} catch {
    say("error \(name(of: error))")
    exit(3)
}

var number = first
while fill || number < first + count {
    do throws(OutboxError) {
        try outbox.enqueue(
            Endpoint<Empty>(
                method: .post,
                path: RequestPath(percentEncoded: path),
                parameters: .json(["n": .int(number), "pad": .string(pad)])
            ), kind: "item")
        say("enqueued \(number)")
    } catch {
        say("error \(name(of: error))")
        if fill { break }
        say("pending \(outbox.pending.count)")
        exit(3)
    }
    number += 1
}
if flags.contains("--exit-after-enqueue") {
    say("pending \(outbox.pending.count)")
    exit(0)
}
online.value = true
if !outbox.pending.isEmpty {
    for await _ in outbox.results where outbox.pending.isEmpty { break }
}
say("drained")
exit(0)
