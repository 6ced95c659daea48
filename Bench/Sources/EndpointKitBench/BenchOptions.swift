import BenchTestServer

/// The command line of `endpointkit-bench`, and the request counts and rounds it implies.
struct BenchOptions: Equatable {
    /// A short run (under a minute): fewer requests and rounds.
    var quick = false
    /// Print one JSON document instead of the table.
    var json = false
    /// Scenario names or numbers to run; empty for all.
    var scenarios: [String] = []
    /// The largest number of requests any measurement makes (for smoke tests); `nil` for the defaults.
    var requestCap: Int?
    /// The number of objects in the decoding payload; `nil` for the default (20,000).
    var objects: Int?
    /// Measured rounds per side; `nil` for the defaults.
    var rounds: Int?
    /// The size of scenario 4's transfers in MiB; `nil` for the defaults (1024, quick 64).
    var transferMiB: Int?
    /// Run only this side of every comparison (`endpointkit`, `baseline`, `reference`, or one
    /// contender by its number: 0 EndpointKit, 1 the baseline, 2... the references in the order
    /// the row lists them), to profile one side alone; `nil` for all.
    var only: String?
    /// Run the soak (``SoakRunner``) instead of the scenarios.
    var soak = false
    /// The soak's requests in flight; `nil` for the default (64).
    var inFlight: Int?
    /// The soak's transports; empty for every one available.
    var transports: [SoakTransport] = []
    /// The seed of the soak's mix; `nil` for a random one (printed).
    var seed: UInt64?
    /// The link profiles (``LinkProfile``) the soak or the impaired transfers run through; empty for
    /// a plain loopback soak, or ``LinkProfile/handover`` for the transfers.
    var profiles: [LinkProfile] = []
    /// The factor on the profiles' fault rates (``LinkProfile/withFaults(scaledBy:)``); 1 by default.
    var faultScale: Double = 1
    /// Run the transfers through impaired links (``ImpairedTransferMode``) instead of the scenarios.
    var impairedTransfers = false
    /// Serve `GET /model` from nginx in scenarios 1, 2 and 6 (``NginxServer``).
    var nginx = false
    /// Count the instructions per request of EndpointKit and its baselines (bare libcurl, URLSession)
    /// under callgrind (``InstructionsMode``) instead of running the scenarios.
    var instructions = false
    /// Hidden: the child of ``InstructionsMode``: make the requests of one client
    /// (``InstructionsMode/Client``) against ``url``, `--in-flight` at a time (sequentially
    /// without it), after ``warmup`` unmeasured ones.
    var instructionsChild: InstructionsMode.Client?
    /// Hidden: the base URL the ``instructionsChild`` requests `GET /model` from.
    var url: String?
    /// Hidden: the ``instructionsChild``'s warm-up requests.
    var warmup: Int?
    /// Hidden: serve the benchmark routes until standard input closes (the child process).
    var serve = false
    /// Print the usage and exit.
    var help = false

    static let usage = """
        usage: endpointkit-bench [--quick] [--json] [--scenario NAME]... [--requests N] [--objects N] [--rounds N]
                                 [--transfer-mb N] [--only SIDE] [--nginx]
               endpointkit-bench --soak [--requests N] [--in-flight N] [--transport urlsession|curl|both] [--seed N]
                                 [--profile NAME]... [--fault-scale X]
               endpointkit-bench --impaired-transfers [--profile NAME]... [--transfer-mb N] [--transport T] [--seed N]
               endpointkit-bench --instructions [--quick] [--json] [--requests N]
          --quick          a run under a minute (fewer requests and rounds)
          --json           print a JSON document instead of the table
          --scenario NAME  run only this scenario (repeatable): \(ScenarioCatalog.names.joined(separator: ", "))
                           or its number
          --requests N     make at most N requests in any measurement (smoke tests)
          --objects N      objects in the decoding payload (default 20000)
          --rounds N       measured rounds per side (default 5, quick 3; transfers 3)
          --transfer-mb N  MiB uploaded and downloaded per transfer run (default 1024, quick 64)
          --only SIDE      run only one side: \(Self.sides.joined(separator: ", ")), or a contender's number (for profiling)
          --nginx          serve GET /model from nginx (installed separately) in scenarios 1, 2 and 6
          --soak           send many requests (default 100000) with faults, cancels and timeouts, then check
                           that each completed once and nothing leaked; exits 1 if a check fails
          --in-flight N    soak requests in flight (default 64)
          --transport T    soak over urlsession, curl or both (default both where curl exists)
          --seed N         the soak's mix and the link's faults (default random, printed)
          --profile NAME   put a link impairer with this profile between client and server (repeatable):
                           \(Self.profileNames.joined(separator: ", ")), or all; a soak through a link sends
                           10000 requests unless --requests says otherwise
          --fault-scale X  multiply the profiles' fault rates (resets, stalls, half-open per MiB) by X, so that a
                           soak's small requests meet more of them (default 1)
          --impaired-transfers
                           a resumable download of --transfer-mb MiB (default 100) through the link's resets,
                           then an upload of a quarter of that as a POST (not retried) and as a PUT (retried),
                           per profile (default handover) and transport; exits 1 if one is not as expected
          --instructions   instructions per request of a decoded GET against nginx, EndpointKit+libcurl and
                           bare libcurl, EndpointKit on URLSessionTransport and URLSession data(for:),
                           sequentially and 16 in flight, counted by valgrind's callgrind in runs of N and
                           2N requests (--requests N: default \(Self.defaultInstructionRequests), quick \(Self.quickInstructionRequests); a quarter on URLSession)
        """

    /// The names `--profile` takes.
    static let profileNames = (["perfect"] + LinkProfile.named.map(\.name))

    /// Parses the arguments after the program name.
    /// - Throws: ``BenchError/usage(_:)`` for an unknown flag or a missing or bad value.
    init(arguments: [String]) throws(BenchError) {
        var remaining = arguments[...]
        func count(after flag: String) throws(BenchError) -> Int {
            guard let text = remaining.popFirst(), let value = Int(text), value > 0 else {
                throw .usage("\(flag) needs a positive number")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--json": json = true
            case "--serve": serve = true
            case "--nginx": nginx = true
            case "--soak": soak = true
            case "--impaired-transfers": impairedTransfers = true
            case "--instructions": instructions = true
            case "--instructions-child":
                guard let name = remaining.popFirst(), let client = InstructionsMode.Client(rawValue: name) else {
                    throw .usage("--instructions-child needs one of \(InstructionsMode.Client.allCases)")
                }
                instructionsChild = client
            case "--url":
                guard let text = remaining.popFirst() else { throw .usage("--url needs a URL") }
                url = text
            case "--warmup":
                guard let text = remaining.popFirst(), let value = Int(text), value >= 0 else {
                    throw .usage("--warmup needs a number of at least 0")
                }
                warmup = value
            case "--fault-scale":
                guard let text = remaining.popFirst(), let value = Double(text), value >= 0, value.isFinite else {
                    throw .usage("--fault-scale needs a number of at least 0")
                }
                faultScale = value
            case "--profile":
                guard let name = remaining.popFirst(), name == "all" || LinkProfile.named(name) != nil else {
                    throw .usage("--profile needs one of \((Self.profileNames + ["all"]).joined(separator: ", "))")
                }
                profiles += name == "all" ? LinkProfile.named : LinkProfile.named(name).map { [$0] } ?? []
            case "--in-flight": inFlight = try count(after: argument)
            case "--seed":
                guard let text = remaining.popFirst(), let value = UInt64(text) else {
                    throw .usage("--seed needs a number from 0 to \(UInt64.max)")
                }
                seed = value
            case "--transport":
                let names = SoakTransport.available.map(\.rawValue)
                guard let name = remaining.popFirst(), name == "both" || names.contains(name) else {
                    throw .usage("--transport needs one of \((names + ["both"]).joined(separator: ", "))")
                }
                transports = SoakTransport.available.filter { name == "both" || $0.rawValue == name }
            case "--help", "-h": help = true
            case "--requests": requestCap = try count(after: argument)
            case "--objects": objects = try count(after: argument)
            case "--rounds": rounds = try count(after: argument)
            case "--transfer-mb": transferMiB = try count(after: argument)
            case "--scenario":
                guard let name = remaining.popFirst(), ScenarioCatalog.isKnown(name) else {
                    throw .usage("--scenario needs one of \(ScenarioCatalog.names.joined(separator: ", "))")
                }
                scenarios.append(name)
            case "--only":
                guard let side = remaining.popFirst(), Self.sides.contains(side) || Int(side) != nil else {
                    throw .usage("--only needs one of \(Self.sides.joined(separator: ", ")) or a contender's number")
                }
                only = side
            default: throw .usage("unknown argument \(argument)")
            }
        }
    }

    /// The sides of a comparison, in the order scenarios list their contenders.
    static let sides = ["endpointkit", "baseline", "reference"]

    /// Whether the contender at `index` (0 EndpointKit, 1 the baseline, then references in the
    /// order the row lists them) runs: `--only` names a side, or one contender by number.
    func includesContender(at index: Int) -> Bool {
        guard let only else { return true }
        if let number = Int(only) { return number == index }
        return only == Self.sides[min(index, Self.sides.count - 1)]
    }

    /// Whether the scenario with this number and name was asked for.
    func includes(number: Int, name: String) -> Bool {
        scenarios.isEmpty || scenarios.contains(name) || scenarios.contains(String(number))
    }

    /// `count`, lowered to the `--requests` cap.
    func requests(_ count: Int) -> Int { min(count, requestCap ?? count) }

    /// Requests of scenario 1 (sequential).
    var sequentialRequests: Int { requests(quick ? 300 : 2000) }

    /// Requests of scenario 2 (concurrent), per in-flight width.
    var concurrentRequests: Int { requests(quick ? 1000 : 10_000) }

    /// Request counts of scenario 6 (scale): each step is served by one client in `chunks`
    /// interleaved runs of `requests / chunks` requests.
    var scaleSteps: [(requests: Int, chunks: Int)] {
        let totals = quick ? [200, 1000, 5000] : [1000, 10_000, 100_000]
        var seen: Set<Int> = []
        return totals.compactMap { total in
            let count = requests(total)
            guard seen.insert(count).inserted else { return nil }
            return (count, min(count, rounds ?? 10))
        }
    }

    /// Objects in the payload of scenario 3.
    var decodeObjects: Int { objects ?? 20_000 }

    /// Measured rounds per side for scenarios 1 to 3 and 5.
    var measuredRounds: Int { rounds ?? (quick ? 3 : 5) }

    /// MiB per upload and per download in scenario 4 (the issue's 1 GB is 1024 MiB here).
    var transferSizeMiB: Int { transferMiB ?? (quick ? 64 : 1024) }

    /// Measured rounds per side for scenario 4 (each round moves the transfer size four times).
    var transferRounds: Int { rounds ?? 3 }

    /// Requests per run of scenario 5 (cache), per side.
    var cacheRequests: Int { requests(quick ? 300 : 2000) }

    /// Requests per run of scenario 7 (the client core on an in-process transport), per side.
    var coreRequests: Int { requests(quick ? 10_000 : 30_000) }

    /// How long each server capacity probe runs, in seconds.
    var capacitySeconds: Double { quick || requestCap != nil ? 0.5 : 2 }

    /// Unmeasured requests per side before a scenario's rounds (connections, caches, lazy setup).
    var warmupRequests: Int { requests(200) }

    /// The soak's requests: `--requests`, else the issue's 100,000, or 10,000 through a link.
    var soakRequests: Int { requestCap ?? (profiles.isEmpty ? 100_000 : 10_000) }

    /// The links the soak runs through: `nil` for loopback as it is.
    var soakLinks: [LinkProfile?] { profiles.isEmpty ? [nil] : profiles.map { $0.withFaults(scaledBy: faultScale) } }

    /// The links the impaired transfers run through.
    var transferLinks: [LinkProfile] {
        (profiles.isEmpty ? [.handover] : profiles).map { $0.withFaults(scaledBy: faultScale) }
    }

    /// MiB of the impaired download (the upload is a quarter of it).
    var impairedTransferMiB: Int { transferMiB ?? 100 }

    /// The soak's requests in flight.
    var soakInFlight: Int { inFlight ?? 64 }

    /// The default of ``instructionRequests``: about five minutes under callgrind here.
    static let defaultInstructionRequests = 1000
    /// ``instructionRequests`` with `--quick`.
    static let quickInstructionRequests = 200

    /// `--instructions`: the N of the runs of N and 2N requests per client and load.
    var instructionRequests: Int {
        requestCap ?? (quick ? Self.quickInstructionRequests : Self.defaultInstructionRequests)
    }

    /// `--instructions`: the unmeasured requests before each run's N or 2N (the same in both, so
    /// they cancel with the start-up): connections (16 at 16 in flight), caches, lazy set-up.
    var instructionWarmup: Int { max(16, min(instructionRequests, 100)) }

    /// The soak's transports, in the order they run.
    var soakTransports: [SoakTransport] { transports.isEmpty ? SoakTransport.available : transports }
}
