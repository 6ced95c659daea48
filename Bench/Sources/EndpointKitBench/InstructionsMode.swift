import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Set by the parent's signal handler (`SIGINT`, `SIGTERM`, `SIGHUP`): stop the child, clean up, exit.
nonisolated(unsafe) private var instructionsTerminationSignal: Int32 = 0

/// `endpointkit-bench --instructions`: the instructions per request of a decoded `GET /model`
/// against nginx on loopback, for EndpointKit on `CurlTransport` and for the bare libcurl client
/// (``BareCurlClient``), sequentially and with 16 in flight; for the bare client sending the
/// request headers EndpointKit sends, which splits the ratio into libcurl's work for those headers
/// and EndpointKit's own; and for EndpointKit on `URLSessionTransport` against a hand-written
/// URLSession `data(for:)` (the figure apps on Apple platforms live with, here on FoundationNetworking).
///
/// Instructions are deterministic where time is not (this machine is shared): each client and load
/// runs in a child process, this executable again with the hidden `--instructions-child`, under
/// `valgrind --tool=callgrind`, twice, with N and with 2N requests after the same warm-up. The
/// start-up, the warm-up and the exit are the same in both runs, so the instructions per request
/// are (Ir(2N) - Ir(N)) / N, Ir being the child's total from callgrind's output file. nginx runs
/// outside valgrind and is not counted.
enum InstructionsMode {
    /// The clients measured, as `--instructions-child` names them.
    enum Client: String, CaseIterable, Sendable {
        /// EndpointKit's `APIClient` on `CurlTransport`, used as a user would.
        case endpointkit
        /// ``BareCurlClient``: libcurl from Swift with nothing else.
        case bare
        /// ``BareCurlClient`` sending the header lines EndpointKit's transport adds to a plain GET
        /// (`Accept-Encoding`, `User-Agent`, `Accept-Language`, as URLSession does), read off the
        /// wire: what the same request costs libcurl itself.
        case bareWithHeaders = "bare-headers"
        /// EndpointKit's `APIClient` on `URLSessionTransport`, as scenarios 1 and 2 make it.
        case endpointkitURLSession = "endpointkit-urlsession"
        /// URLSession `data(for:)` and `JSONDecoder`, hand-written (``URLSessionBaseline``).
        case urlSession = "urlsession"

        /// Whether the client runs on URLSession: about six times libcurl's instructions a request,
        /// so it is counted over a quarter of the requests (``InstructionsMode/requests(for:of:)``).
        var isURLSession: Bool { self == .endpointkitURLSession || self == .urlSession }

        /// The name in the printed lines.
        var displayName: String {
            switch self {
            case .endpointkit: return LibcurlRow.endpointKitName
            case .bare: return "bare libcurl"
            case .bareWithHeaders: return "bare libcurl with EndpointKit's request headers"
            case .endpointkitURLSession: return "EndpointKit on URLSessionTransport"
            case .urlSession: return "URLSession data(for:)"
            }
        }
    }

    /// A load: the requests in flight, `nil` for one after the other.
    struct Load {
        let name: String
        let width: Int?
    }

    /// The loads measured, in order.
    static let loads = [Load(name: "sequential", width: nil), Load(name: "16 in flight", width: 16)]

    /// One child run under callgrind.
    struct Run: Encodable {
        let client: String
        let inFlight: Int
        let warmupRequests: Int
        let requests: Int
        /// The child's total instructions (callgrind's `Ir`), start-up and warm-up included.
        let instructions: UInt64
    }

    /// The figures of one load: the line it prints.
    struct LoadResult: Encodable {
        let load: String
        let inFlight: Int
        /// EndpointKit+libcurl's instructions per request.
        let endpointKitLibcurl: Int
        /// Bare libcurl's instructions per request.
        let bareLibcurl: Int
        /// `endpointKitLibcurl / bareLibcurl`.
        let ratio: Double
        /// Bare libcurl's instructions per request with EndpointKit's request headers.
        let bareLibcurlWithHeaders: Int
        /// `endpointKitLibcurl / bareLibcurlWithHeaders`.
        let ratioToSameHeaders: Double
        /// EndpointKit on `URLSessionTransport`'s instructions per request.
        let endpointKitURLSession: Int
        /// URLSession `data(for:)`'s instructions per request.
        let urlSession: Int
        /// `endpointKitURLSession / urlSession`.
        let ratioURLSession: Double
        let runs: [Run]

        /// `instructions per request (sequential): EndpointKit+libcurl N, bare libcurl M, ratio R`,
        /// then `same request headers (sequential): bare libcurl with EndpointKit's request headers
        /// H, ratio R2`, then `on URLSession (sequential): EndpointKit on URLSessionTransport U,
        /// URLSession data(for:) D, ratio R3`.
        var lines: [String] {
            [
                "instructions per request (\(load)): \(Client.endpointkit.displayName) \(endpointKitLibcurl), "
                    + "\(Client.bare.displayName) \(bareLibcurl), ratio \(Format.fixed(ratio, 2))",
                "same request headers (\(load)): \(Client.bareWithHeaders.displayName) \(bareLibcurlWithHeaders), "
                    + "ratio \(Format.fixed(ratioToSameHeaders, 2))",
                "on URLSession (\(load)): \(Client.endpointkitURLSession.displayName) \(endpointKitURLSession), "
                    + "\(Client.urlSession.displayName) \(urlSession), ratio \(Format.fixed(ratioURLSession, 2))",
            ]
        }
    }

    /// What `--instructions --json` prints.
    struct Report: Encodable {
        var tool = "endpointkit-bench"
        var mode = "instructions"
        let build: String
        let arguments: [String]
        let machine: BenchReport.Machine
        let valgrind: String
        let server: String
        /// N: each libcurl client and load runs N and 2N requests after ``warmupRequests``; each
        /// URLSession client a quarter of that (``InstructionsMode/requests(for:of:)``).
        let requests: Int
        let warmupRequests: Int
        let loads: [LoadResult]
    }

    /// The N of `client`'s runs when the libcurl clients' is `count`: a quarter of it (at least
    /// 20) for a URLSession client, whose requests cost about six times as much under callgrind.
    static func requests(for client: Client, of count: Int) -> Int {
        client.isURLSession ? max(20, count / 4) : count
    }

    // MARK: - The parent

    /// Measures the three clients at both loads and prints two lines per load (or the JSON report).
    /// - Returns: the exit status: 0 also when valgrind is missing or cannot run this build (a line
    ///   says so and nothing is measured), 1 when a run failed.
    static func run(_ options: BenchOptions) -> Int32 {
        #if os(Linux) && canImport(CCurlShimAPI)
        guard let valgrind = findExecutable("valgrind") else {
            print("instructions per request: valgrind is not installed (apt-get install valgrind); nothing measured")
            return 0
        }
        if let sanitizer = Self.sanitizer {
            print("instructions per request: valgrind cannot run a \(sanitizer) sanitizer build; nothing measured")
            return 0
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "endpointkit-bench-instructions-\(getpid())", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            report("cannot create \(folder.path): \(error)")
            return 1
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        installSignalHandlers()
        defer { restoreSignalHandlers() }

        let nginx: NginxServer
        do {
            nginx = try NginxServer(model: Payloads.user)
        } catch {
            report("\(error)")
            return 1
        }
        defer { nginx.stop() }

        let executable = debugStrippedExecutable(in: folder)
        let count = options.instructionRequests
        let warmup = options.instructionWarmup
        let onURLSession = requests(for: .urlSession, of: count)
        progress(
            "callgrind (\(valgrind)) on \(executable), GET /model from nginx at \(nginx.baseURL.absoluteString); "
                + "runs of \(count) and \(2 * count) requests after \(warmup) per client and load "
                + "(\(onURLSession) and \(2 * onURLSession) on URLSession)")
        var results: [LoadResult] = []
        for load in loads {
            var runs: [Run] = []
            var perRequest: [Client: Int] = [:]
            for client in Client.allCases {
                var totals: [UInt64] = []
                let count = requests(for: client, of: count)
                for requests in [count, 2 * count] {
                    let stopwatch = Stopwatch()
                    let instructions: UInt64
                    do {
                        instructions = try measure(
                            client, load: load, requests: requests, warmup: warmup, baseURL: nginx.baseURL,
                            executable: executable, valgrind: valgrind, folder: folder)
                    } catch {
                        report("\(load.name), \(client.displayName), \(requests) requests: \(error)")
                        return 1
                    }
                    progress(
                        "\(load.name), \(client.displayName), \(warmup) + \(requests) requests: "
                            + "\(instructions) instructions (\(Format.fixed(stopwatch.wallSeconds, 1)) s)")
                    totals.append(instructions)
                    runs.append(
                        Run(
                            client: client.displayName, inFlight: load.width ?? 1, warmupRequests: warmup,
                            requests: requests, instructions: instructions))
                }
                perRequest[client] = Int(((Double(totals[1]) - Double(totals[0])) / Double(count)).rounded())
            }
            let endpointKit = perRequest[.endpointkit] ?? 0
            let bare = perRequest[.bare] ?? 0
            let withHeaders = perRequest[.bareWithHeaders] ?? 0
            let (onURLSession, urlSession) = (perRequest[.endpointkitURLSession] ?? 0, perRequest[.urlSession] ?? 0)
            results.append(
                LoadResult(
                    load: load.name, inFlight: load.width ?? 1, endpointKitLibcurl: endpointKit, bareLibcurl: bare,
                    ratio: bare > 0 ? Double(endpointKit) / Double(bare) : .nan, bareLibcurlWithHeaders: withHeaders,
                    ratioToSameHeaders: withHeaders > 0 ? Double(endpointKit) / Double(withHeaders) : .nan,
                    endpointKitURLSession: onURLSession, urlSession: urlSession,
                    ratioURLSession: urlSession > 0 ? Double(onURLSession) / Double(urlSession) : .nan, runs: runs))
        }

        if options.json {
            let report = Report(
                build: BenchRunner.buildConfiguration, arguments: Array(CommandLine.arguments.dropFirst()),
                machine: BenchReport.currentMachine(), valgrind: valgrind,
                server: "nginx (\(nginx.executable), one process, static file) on 127.0.0.1", requests: count,
                warmupRequests: warmup, loads: results)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            do {
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } catch {
                Self.report("could not encode JSON: \(error)")
                return 1
            }
        } else {
            if BenchRunner.buildConfiguration == "debug" {
                progress("WARNING: a debug build; its instruction counts say nothing about a release build")
            }
            results.forEach { $0.lines.forEach { print($0) } }
        }
        return 0
        #else
        print("instructions per request: needs Linux (libcurl and valgrind); nothing measured")
        return 0
        #endif
    }

    /// How long a child may take: callgrind runs this code 50-100 times slower, a debug build several
    /// times slower again, on a machine that may be shared.
    static func timeoutSeconds(requests: Int, warmup: Int, client: Client) -> Double {
        120 + Double(requests + warmup) * (client.isURLSession ? 1.0 : 0.2)
    }

    /// Runs one child under callgrind and returns its total instructions.
    private static func measure(
        _ client: Client, load: Load, requests: Int, warmup: Int, baseURL: URL, executable: String,
        valgrind: String, folder: URL
    ) throws(BenchError) -> UInt64 {
        let name = "\(client.rawValue)-\(load.width ?? 1)-\(requests)"
        let profile = folder.appendingPathComponent("callgrind.\(name).out")
        let log = folder.appendingPathComponent("valgrind.\(name).log")
        defer {
            try? FileManager.default.removeItem(at: profile)
            try? FileManager.default.removeItem(at: log)
        }
        var arguments = [
            valgrind, "--tool=callgrind", "--callgrind-out-file=\(profile.path)", "--log-file=\(log.path)",
            executable, "--instructions-child", client.rawValue, "--url", baseURL.absoluteString,
            "--requests", String(requests), "--warmup", String(warmup),
        ]
        if let width = load.width { arguments += ["--in-flight", String(width)] }
        let timeout = timeoutSeconds(requests: requests, warmup: warmup, client: client)
        let child = try ChildProcess(valgrind, arguments, input: .null, output: .null)
        let succeeded = child.wait(timeout: timeout) { instructionsTerminationSignal != 0 }
        let logTail = { () -> String in
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").suffix(15).joined(separator: "\n")
        }
        if instructionsTerminationSignal != 0 {
            throw .process("stopped by signal \(instructionsTerminationSignal)")
        }
        guard let succeeded else { throw .process("killed after \(Int(timeout)) s\n\(logTail())") }
        guard succeeded else {
            throw .process("the child under valgrind failed; valgrind's log ends with:\n\(logTail())")
        }
        guard let instructions = totalInstructions(inProfile: profile) else {
            throw .process("no summary: or totals: line in \(profile.lastPathComponent)\n\(logTail())")
        }
        return instructions
    }

    /// The `summary:` (else `totals:`) figure of a callgrind output file: the first event, `Ir`.
    static func totalInstructions(inProfile profile: URL) -> UInt64? {
        guard let text = try? String(contentsOf: profile, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n")
        for prefix in ["summary:", "totals:"] {
            if let line = lines.last(where: { $0.hasPrefix(prefix) }),
                let figure = line.dropFirst(prefix.count).split(separator: " ").first,
                let value = UInt64(figure)
            {
                return value
            }
        }
        return nil
    }

    /// A copy of this executable without its debug information, in `folder`: valgrind 3.19 cannot read
    /// the DWARF 5 that Swift 6 writes ("Possibly corrupted debuginfo file ... Giving up"). The
    /// executable itself when `objcopy` is missing or fails.
    private static func debugStrippedExecutable(in folder: URL) -> String {
        let original = ServerProcess.executablePath()
        let copy = folder.appendingPathComponent("endpointkit-bench").path
        guard let objcopy = findExecutable("objcopy"),
            let child = try? ChildProcess(
                objcopy, [objcopy, "--strip-debug", original, copy], input: .null, output: .null, errorToNull: true),
            child.wait(timeout: 60) == true
        else {
            progress("objcopy --strip-debug failed; valgrind may not read \(original)")
            return original
        }
        return copy
    }

    /// `name` in `PATH`, `/usr/bin` or `/usr/local/bin`.
    static func findExecutable(_ name: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin:/usr/local/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// The sanitizer this process was built with (`thread`, `address`), if any. valgrind 3.19 cannot
    /// count either: ThreadSanitizer fails a CHECK on its own symbol table under valgrind
    /// (`sanitizer_linux_libcdep.cpp:730`) and dies with `SIGILL`; AddressSanitizer finds the memory
    /// layout incompatible and re-executes itself with a fixed address space, outside valgrind, which
    /// leaves callgrind's file empty.
    static var sanitizer: String? {
        #if canImport(Glibc)
        guard let process = dlopen(nil, RTLD_NOW) else { return nil }
        defer { dlclose(process) }
        if dlsym(process, "__tsan_init") != nil { return "thread" }
        if dlsym(process, "__asan_init") != nil { return "address" }
        #endif
        return nil
    }

    private static let handledSignals = [SIGINT, SIGTERM, SIGHUP]

    private static func installSignalHandlers() {
        instructionsTerminationSignal = 0
        for number in handledSignals {
            _ = signal(number) { received in instructionsTerminationSignal = received }
        }
    }

    private static func restoreSignalHandlers() {
        for number in handledSignals { _ = signal(number, SIG_DFL) }
    }

    private static func progress(_ line: String) {
        FileHandle.standardError.write(Data("[bench] instructions: \(line)\n".utf8))
    }

    private static func report(_ line: String) {
        FileHandle.standardError.write(Data("endpointkit-bench --instructions: \(line)\n".utf8))
    }
}
