// Runs other processes (`Process`), which iOS, tvOS and watchOS do not have.
#if os(macOS) || os(Linux)
@_spi(Internal) import EndpointKit
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Certificates made with the `openssl` command at test time, and HTTPS servers (Python's `ssl`
/// module) presenting them on loopback. Made once per test process.
///
/// - `ca`: a private CA; `leaf` (127.0.0.1 and localhost), `expired` and `wrongHost`
///   (`wrong.example`) are issued by it.
/// - `selfSigned`: a self-signed certificate for 127.0.0.1; `otherCA`: an unrelated CA.
/// - `mutual` serves `leaf` and requires a client certificate issued by `ca`, whose common name it
///   answers (`{"ok": true, "client": "EndpointKit Client"}`): `client` (key `client.key`, also
///   encrypted with ``clientKeyPassword`` in `clientEncrypted.key`) is one; `otherClient` is
///   issued by `otherCA`.
///
/// When `ENDPOINTKIT_HTTP2_PYTHON` names a Python with `hypercorn` (`.ci/run` sets it), an HTTP/2
/// server presenting `leaf` answers `{"version": ..., "client_port": ...}` at ``http2URL``.
final class TLSFixture: @unchecked Sendable {
    /// A served certificate: its port on 127.0.0.1.
    enum Served: String, CaseIterable {
        case leaf, expired, wrongHost, selfSigned, mutual
    }

    /// The password of `clientEncrypted.key`.
    static let clientKeyPassword = "correct horse"
    /// Every file the fixture keeps.
    private static let kept = [
        "ca.pem", "ca.der", "otherCA.pem", "leaf.pem", "expired.pem", "selfSigned.pem", "client.pem", "client.key",
        "clientEncrypted.key", "otherClient.pem", "otherClient.key",
    ]

    private let files: [String: Data]
    private let pins: [String: String]
    private let ports: [Served: Int]
    private let process: Process
    private let input: Pipe
    /// The HTTP/2 server's URL, if one was started.
    let http2URL: URL?
    private let http2Server: (Process, Pipe)?

    private static let lock = NSLock()
    nonisolated(unsafe) private static var shared: Result<TLSFixture, any Error>?

    /// The fixture, made on first use.
    /// - Throws: `XCTSkip` if `openssl` or `python3` is missing, or what failed.
    static func get() throws -> TLSFixture {
        try lock.withLock {
            if let shared { return try shared.get() }
            let made = Result { try TLSFixture() }
            shared = made
            return try made.get()
        }
    }

    private init() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "endpointkit-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The servers load their keys at start, so nothing stays on disk.
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.makeCertificates(in: directory)
        var files: [String: Data] = [:]
        for name in Self.kept {
            files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        self.files = files
        pins = [
            "leaf.pem": try Self.opensslPin(of: directory.appendingPathComponent("leaf.pem")),
            "selfSigned.pem": try Self.opensslPin(of: directory.appendingPathComponent("selfSigned.pem")),
        ]
        (process, input, ports) = try Self.startServers(in: directory)
        if let python = ProcessInfo.processInfo.environment["ENDPOINTKIT_HTTP2_PYTHON"] {
            let (server, pipe, line) = try Self.start(python, ["-c", Self.http2Script], in: directory)
            http2Server = (server, pipe)
            http2URL = URL(string: "https://127.0.0.1:\(line.trimmingCharacters(in: .whitespaces))")
        } else {
            (http2Server, http2URL) = (nil, nil)
        }
    }

    /// The bytes of a generated file (`ca.pem`, `ca.der`, `otherCA.pem`, `leaf.pem`, `expired.pem`,
    /// `selfSigned.pem`, `client.pem`, `client.key`, `clientEncrypted.key`, `otherClient.pem`,
    /// `otherClient.key`).
    func file(_ name: String) -> Data { files[name] ?? Data() }

    /// The SPKI SHA-256 pin (`sha256//...`) of `leaf.pem` or `selfSigned.pem`, computed by
    /// `openssl`, independently of EndpointKit.
    func pin(of name: String) -> String { pins[name] ?? "" }

    /// `https://<host>:<port>/json` of the server presenting `served`.
    func url(_ served: Served, host: String = "127.0.0.1") -> URL {
        URL(string: "https://\(host):\(ports[served] ?? 0)/json")!
    }

    /// Sends one GET for `url` through `transport` and waits for its result (15 s at most; `nil`
    /// if it never came).
    func fetch(_ url: URL, through transport: any Transport) -> Result<TransportResponse, TransportError>? {
        let done = DispatchSemaphore(value: 0)
        let box = Locked<Result<TransportResponse, TransportError>?>(nil)
        let request = TransportRequest(
            urlRequest: URLRequest(url: url), timeouts: Timeouts(total: 10), maximumResponseSize: 1 << 20)
        let task = transport.execute(request) { result in
            box.value = result
            done.signal()
        }
        if done.wait(timeout: .now() + 15) == .timedOut { task.cancel() }
        return box.value
    }

    private static func opensslPin(of file: URL) throws -> String {
        let output = try run(
            "/bin/sh", "-c",
            "openssl x509 -in '\(file.path)' -pubkey -noout | openssl pkey -pubin -outform der"
                + " | openssl dgst -sha256 -binary | base64")
        return "sha256//" + output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func makeCertificates(in directory: URL) throws {
        let script = """
            set -e
            cd '\(directory.path)'
            key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:prime256v1 -out "$1" 2>/dev/null; }
            ca() { key "$1.key"; openssl req -x509 -new -key "$1.key" -out "$1.pem" -days 2 -subj "/CN=$2" \
                -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign 2>/dev/null; }
            leaf() { key "$1.key"; openssl req -new -key "$1.key" -out "$1.csr" -subj "/CN=$2" 2>/dev/null
                printf 'subjectAltName=%s\\nextendedKeyUsage=serverAuth\\n' "$3" > "$1.ext"
                openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -out "$1.pem" \
                    -days "$4" -extfile "$1.ext" 2>/dev/null; }
            ca ca "EndpointKit Test CA"
            ca otherCA "EndpointKit Other CA"
            leaf leaf 127.0.0.1 "IP:127.0.0.1,DNS:localhost" 2
            leaf expired 127.0.0.1 "IP:127.0.0.1,DNS:localhost" -1
            leaf wrongHost wrong.example "DNS:wrong.example" 2
            key selfSigned.key
            openssl req -x509 -new -key selfSigned.key -out selfSigned.pem -days 2 -subj "/CN=127.0.0.1" \
                -addext subjectAltName=IP:127.0.0.1,DNS:localhost -addext extendedKeyUsage=serverAuth 2>/dev/null
            openssl x509 -in ca.pem -outform der -out ca.der
            client() { key "$1.key"; openssl req -new -key "$1.key" -out "$1.csr" -subj "/CN=$2" 2>/dev/null
                printf 'extendedKeyUsage=clientAuth\\n' > "$1.ext"
                openssl x509 -req -in "$1.csr" -CA "$3.pem" -CAkey "$3.key" -CAcreateserial -out "$1.pem" \
                    -days 2 -extfile "$1.ext" 2>/dev/null; }
            client client "EndpointKit Client" ca
            client otherClient "EndpointKit Other Client" otherCA
            openssl pkey -in client.key -aes256 -passout 'pass:\(clientKeyPassword)' -out clientEncrypted.key
            """
        _ = try run("/bin/sh", "-c", script)
    }

    private static let serverScript = """
        import http.server, json, socket, ssl, sys, threading
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def do_GET(self):
                subject = dict(part[0] for part in (self.connection.getpeercert() or {}).get("subject", ()))
                body = json.dumps({"ok": True, "client": subject.get("commonName")}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *args):
                pass
        class Server(http.server.ThreadingHTTPServer):
            def finish_request(self, request, client_address):
                try:
                    request.do_handshake()
                except OSError:
                    # Like nginx's lingering close: the client reads the alert (e.g. "certificate
                    # required" after a TLS 1.3 handshake) before the connection is reset.
                    request.settimeout(5)
                    try:
                        while socket.socket.recv(request, 4096):
                            pass
                    except OSError:
                        pass
                    return
                super().finish_request(request, client_address)
        ports = []
        for name in sys.argv[1:]:
            server = Server(("127.0.0.1", 0), Handler)
            server.daemon_threads = True
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            if name == "mutual":
                context.load_cert_chain("leaf.pem", "leaf.key")
                context.verify_mode = ssl.CERT_REQUIRED
                context.load_verify_locations("ca.pem")
            else:
                context.load_cert_chain(name + ".pem", name + ".key")
            server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            ports.append(str(server.server_address[1]))
        print(" ".join(ports), flush=True)
        sys.stdin.read()  # ends with the test process
        """

    private static let http2Script = """
        import asyncio, json, os, socket, sys, threading, time
        from hypercorn.config import Config
        from hypercorn.asyncio import serve
        async def app(scope, receive, send):
            if scope["type"] != "http":
                return
            body = json.dumps({"version": scope["http_version"], "client_port": scope["client"][1]}).encode()
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": body})
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        config = Config()
        config.bind = ["127.0.0.1:%d" % port]
        config.certfile, config.keyfile = "leaf.pem", "leaf.key"
        config.loglevel = "ERROR"
        def announce():
            for _ in range(300):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    print(port, flush=True)
                    break
                except OSError:
                    time.sleep(0.05)
            sys.stdin.read()  # ends with the test process
            os._exit(0)
        threading.Thread(target=announce, daemon=True).start()
        asyncio.run(serve(app, config))
        """

    private static func startServers(in directory: URL) throws -> (Process, Pipe, [Served: Int]) {
        let (process, input, text) = try start(
            "python3", ["-c", serverScript] + Served.allCases.map(\.rawValue), in: directory)
        let numbers = text.split(separator: " ").compactMap { Int($0) }
        guard numbers.count == Served.allCases.count else {
            process.terminate()
            throw XCTSkip("The python3 TLS server did not report its ports: \(text)")
        }
        return (process, input, Dictionary(uniqueKeysWithValues: zip(Served.allCases, numbers)))
    }

    /// Starts a Python server and waits (bounded) for the line it prints once it listens.
    private static func start(
        _ python: String, _ arguments: [String], in directory: URL
    ) throws -> (Process, Pipe, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python] + arguments
        process.currentDirectoryURL = directory
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Read the port line on another thread so that a broken python cannot hang the tests.
        let line = Locked<String?>(nil)
        let ready = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var bytes = Data()
            while let byte = try? output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8)
            {
                bytes.append(byte)
            }
            line.value = String(decoding: bytes, as: UTF8.self)
            ready.signal()
        }
        guard ready.wait(timeout: .now() + 20) == .success, let text = line.value, !text.isEmpty else {
            process.terminate()
            throw XCTSkip("The \(python) TLS server did not start.")
        }
        return (process, input, text)
    }

    /// Runs a program (an `openssl` script) and returns its output.
    /// - Throws: `XCTSkip` if it fails: `openssl` is needed for TLS tests.
    @discardableResult
    static func run(_ executable: String, _ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw XCTSkip("`\(arguments.joined(separator: " ").prefix(80))` failed; openssl is needed for TLS tests.")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
#endif
