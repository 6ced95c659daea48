#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An error thrown while setting up a ``TestServer``.
///
/// Each case carries the `errno` value reported by the failing system call.
public enum TestServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `socket(2)` failed.
    case socketFailed(errno: Int32)
    /// `setsockopt(2)` failed while configuring the listening socket.
    case socketOptionFailed(errno: Int32)
    /// `bind(2)` to `127.0.0.1:port` failed (for example because the port is in use).
    case bindFailed(port: UInt16, errno: Int32)
    /// `listen(2)` failed.
    case listenFailed(errno: Int32)
    /// `getsockname(2)` failed, so the ephemeral port could not be determined.
    case addressLookupFailed(errno: Int32)
    /// `pipe(2)` failed while creating the internal stop signal.
    case pipeFailed(errno: Int32)

    /// A human-readable description including the system error message.
    public var description: String {
        switch self {
        case .socketFailed(let code):
            return "socket() failed: \(Self.message(code))"
        case .socketOptionFailed(let code):
            return "setsockopt() failed: \(Self.message(code))"
        case .bindFailed(let port, let code):
            return "bind(127.0.0.1:\(port)) failed: \(Self.message(code))"
        case .listenFailed(let code):
            return "listen() failed: \(Self.message(code))"
        case .addressLookupFailed(let code):
            return "getsockname() failed: \(Self.message(code))"
        case .pipeFailed(let code):
            return "pipe() failed: \(Self.message(code))"
        }
    }

    private static func message(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }
}
