import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// nginx serving `GET /model` (the bench's user JSON as a static file) for `--nginx`: the kind of
/// server the transport issue's targets were measured against. One process (no master, one
/// worker's worth), keep-alive without a request limit, no access log; everything it writes goes
/// to a temporary folder, removed when it stops.
final class NginxServer {
    /// The port it listens on, on 127.0.0.1.
    let port: UInt16
    /// The nginx executable.
    let executable: String
    private let child: ChildProcess
    private let folder: URL
    private var stopped = false

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    /// Starts nginx and waits (at most `timeout` seconds) until it accepts connections.
    /// - Throws: ``BenchError/server(_:)`` when nginx is not installed or does not start.
    init(model: Data, timeout: Double = 10) throws(BenchError) {
        guard let executable = Self.find() else {
            throw .server("--nginx: nginx is not installed (e.g. apt-get install nginx-light)")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "endpointkit-bench-nginx-\(getpid())", isDirectory: true)
        let port = try Self.freePort()
        do {
            for name in ["www", "temp"] {
                try FileManager.default.createDirectory(
                    at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
            }
            try model.write(to: folder.appendingPathComponent("www/model"))
            try Data(Self.configuration(port: port, folder: folder.path).utf8)
                .write(to: folder.appendingPathComponent("nginx.conf"))
        } catch {
            throw .server("--nginx: cannot write its files in \(folder.path): \(error)")
        }
        child = try ChildProcess(
            executable, [executable, "-p", folder.path, "-c", folder.appendingPathComponent("nginx.conf").path],
            input: .null, output: .null)
        self.port = port
        self.executable = executable
        guard Self.waitUntilListening(port: port, timeout: timeout) else {
            stop()
            throw .server("--nginx: nginx did not listen on port \(port) within \(Int(timeout)) s")
        }
    }

    deinit { stop() }

    /// Stops nginx and removes its folder.
    func stop() {
        guard !stopped else { return }
        stopped = true
        // Without a master process nginx may keep serving open keep-alive connections after
        // SIGTERM; it has nothing to save, so it is killed if it has not exited within 2 s.
        kill(child.pid, SIGTERM)
        let stopwatch = Stopwatch()
        var status: Int32 = 0
        while stopwatch.wallSeconds < 2, waitpid(child.pid, &status, WNOHANG) == 0 { usleep(10_000) }
        if kill(child.pid, 0) == 0 {
            kill(child.pid, SIGKILL)
            _ = waitpid(child.pid, &status, 0)
        }
        try? FileManager.default.removeItem(at: folder)
    }

    private static func configuration(port: UInt16, folder: String) -> String {
        """
        daemon off;
        master_process off;
        pid \(folder)/nginx.pid;
        error_log \(folder)/error.log;
        events { worker_connections 1024; }
        http {
            access_log off;
            keepalive_requests 100000000;
            keepalive_timeout 120s;
            default_type application/json;
            client_body_temp_path \(folder)/temp/body;
            proxy_temp_path \(folder)/temp/proxy;
            fastcgi_temp_path \(folder)/temp/fastcgi;
            uwsgi_temp_path \(folder)/temp/uwsgi;
            scgi_temp_path \(folder)/temp/scgi;
            server {
                listen 127.0.0.1:\(port);
                root \(folder)/www;
                location / { }
            }
        }
        """
    }

    private static func find() -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/sbin:/usr/local/sbin:/sbin"
        return path.split(separator: ":").map { "\($0)/nginx" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// A port nothing listens on now (bound to 0, read, released: nginx binds it a moment later).
    private static func freePort() throws(BenchError) -> UInt16 {
        #if canImport(Glibc)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socket, generic, length) == 0 && getsockname(socket, generic, &length) == 0
            }
        }
        guard socket >= 0, bound else { throw .server("--nginx: no free port (errno \(errno))") }
        return UInt16(bigEndian: address.sin_port)
    }

    private static func waitUntilListening(port: UInt16, timeout: Double) -> Bool {
        let stopwatch = Stopwatch()
        while stopwatch.wallSeconds < timeout {
            if (try? RawHTTPConnection(port: port)) != nil { return true }
            usleep(20_000)
        }
        return false
    }
}
