/// Why a benchmark step could not run.
enum BenchError: Error, CustomStringConvertible, Equatable {
    /// The command line is wrong.
    case usage(String)
    /// The benchmark server could not be started or reached.
    case server(String)
    /// A request in a measured loop did not succeed; the measurement would be meaningless.
    case requestFailed(String)
    /// A child process (curl) could not be run or failed.
    case process(String)
    /// Something the run needs does not exist here (a transport on another platform).
    case unavailable(String)

    var description: String {
        switch self {
        case .usage(let message): return "usage error: \(message)"
        case .server(let message): return "server: \(message)"
        case .requestFailed(let message): return "request failed: \(message)"
        case .process(let message): return "process: \(message)"
        case .unavailable(let message): return "unavailable: \(message)"
        }
    }
}
