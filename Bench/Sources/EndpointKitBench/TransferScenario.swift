import EndpointKit
import Foundation

/// Scenario 4: a 1 GiB multipart upload from disk and a 1 GiB download to disk; the figure is how
/// far the client's resident memory grows during a run (target: less than 64 MB).
///
/// EndpointKit uploads with `MultipartFormData.append(fileAt:name:)` (above `inMemoryThreshold`
/// the body is written to a temporary file and streamed from it) and downloads with a
/// `DownloadRequest` to a file. The baseline is plain URLSession: `uploadTask(with:fromFile:)` of
/// the same file as the raw body, and `downloadTask(with:)` moving the file into place. Both run
/// interleaved in the same rounds; each run's growth is its peak RSS (`VmHWM`, reset before the
/// run) minus the RSS at its start.
struct TransferScenario: Scenario {
    let number = 4
    let name = "transfer"
    let summary = "1 GB upload from / download to disk: RSS growth"
    let targetText = "< 64 MB"
    let needsServer = true

    /// The limit on RSS growth: 64 MB.
    static let maximumGrowthBytes = 64_000_000

    func run(in context: BenchContext) async throws -> [ResultRow] {
        let baseURL = try context.baseURL()
        let mebibytes = context.options.transferSizeMiB
        let bytes = mebibytes << 20
        let folder = try TransferFolder()
        defer { folder.remove() }
        context.progress("  writing a \(mebibytes) MiB source file in \(folder.url.path)")
        let source = try folder.makeFile(named: "source.bin", bytes: bytes)
        let smallSource = try folder.makeFile(named: "warm-up.bin", bytes: 1 << 20)

        let client = TransferClients.endpointKit(baseURL: baseURL, folder: folder.url)
        let baseline = URLSessionTransferBaseline(baseURL: baseURL)
        let size = mebibytes == 1024 ? "1 GiB" : "\(mebibytes) MiB"
        let reduced = mebibytes == 1024 ? "" : " Reduced size (--quick or --transfer-mb): the issue's is 1 GB."

        func checkReceived(_ received: Int, atLeast expected: Int, _ who: String) throws(BenchError) {
            guard received >= expected else {
                throw .requestFailed("\(who): the server received \(received) of \(expected) bytes")
            }
        }
        // The same upload by an EndpointKit client, under `name`.
        func endpointKitUpload(_ name: String, _ client: APIClient) -> Contender {
            Contender(
                name: name,
                warmUp: { _ = try await client.value(for: UploadFileRequest(file: smallSource)) },
                run: {
                    let receipt = try await client.value(for: UploadFileRequest(file: source))
                    try checkReceived(receipt.received, atLeast: bytes, "\(name) upload")
                    return nil
                })
        }
        var uploads = [
            endpointKitUpload("EndpointKit", client),
            Contender(
                name: "URLSession uploadTask(fromFile:)",
                warmUp: { _ = try await baseline.upload(smallSource) },
                run: {
                    try checkReceived(try await baseline.upload(source), atLeast: bytes, "URLSession upload")
                    return nil
                }),
        ]
        // EndpointKit on its libcurl transport (the Linux default), as a reference.
        let curlClient = Self.curlClient(baseURL: baseURL, folder: folder.url)
        if let curlClient { uploads.append(endpointKitUpload("EndpointKit+libcurl", curlClient)) }
        context.progress("  upload, \(context.options.transferRounds) rounds")
        let uploadSides = try await context.measure(uploads, rounds: context.options.transferRounds)

        let baselineFile = folder.url.appendingPathComponent("urlsession-download.bin")
        let referenceFile = folder.url.appendingPathComponent("delegate-download.bin")
        let reference = DelegateDownloadReference(baseURL: baseURL)
        // The same download by an EndpointKit client, under `name`, into `fileName` in the folder.
        func endpointKitDownload(_ name: String, _ client: APIClient, fileName: String) -> Contender {
            let file = folder.url.appendingPathComponent(fileName)
            return Contender(
                name: name,
                warmUp: { _ = try await client.value(for: DownloadFileRequest(bytes: 1 << 20, file: file)) },
                afterRun: { try folder.removeFile(file, expectedSize: bytes) },
                run: {
                    _ = try await client.value(for: DownloadFileRequest(bytes: bytes, file: file))
                    return nil
                })
        }
        var downloads = [
            endpointKitDownload("EndpointKit", client, fileName: "endpointkit-download.bin"),
            Contender(
                name: "URLSession downloadTask",
                warmUp: { try await baseline.download(bytes: 1 << 20, to: baselineFile) },
                afterRun: { try folder.removeFile(baselineFile, expectedSize: bytes) },
                run: {
                    try await baseline.download(bytes: bytes, to: baselineFile)
                    return nil
                }),
            Contender(
                name: "URLSession delegate+FileHandle",
                warmUp: { try await reference.download(bytes: 1 << 20, to: referenceFile) },
                afterRun: { try folder.removeFile(referenceFile, expectedSize: bytes) },
                run: {
                    try await reference.download(bytes: bytes, to: referenceFile)
                    return nil
                }),
        ]
        if let curlClient {
            downloads.append(endpointKitDownload("EndpointKit+libcurl", curlClient, fileName: "curl-download.bin"))
        }
        context.progress("  download, \(context.options.transferRounds) rounds")
        let downloadSides = try await context.measure(downloads, rounds: context.options.transferRounds)

        var upload = ResultRow.measured(
            self, label: "\(size) multipart upload from disk", maximumRatio: nil, targetText: targetText,
            requests: nil, sides: uploadSides)
        var download = ResultRow.measured(
            self, label: "\(size) download to disk", maximumRatio: nil, targetText: targetText,
            requests: nil, sides: downloadSides)
        upload.bytes = bytes
        upload.maximumGrowthBytes = Self.maximumGrowthBytes
        download.bytes = bytes
        download.maximumGrowthBytes = Self.maximumGrowthBytes
        upload.note =
            "EndpointKit's multipart body (\(size) file part) is written to a temporary file, then uploaded "
            + "from it; the baseline uploads the file as the raw body. Growth = peak RSS - RSS at the run's start, "
            + "largest of \(context.options.transferRounds) rounds."
            + reduced
        return [upload, download]
    }

    /// EndpointKit on `CurlTransport`, where libcurl can be loaded (Linux).
    private static func curlClient(baseURL: URL, folder: URL) -> APIClient? {
        #if os(Linux)
        guard let transport = try? CurlTransport() else { return nil }
        return TransferClients.endpointKit(baseURL: baseURL, folder: folder, transport: transport)
        #else
        return nil
        #endif
    }
}

/// The temporary folder of scenario 4: its source files and downloads, removed afterwards.
struct TransferFolder: Sendable {
    let url: URL

    /// Creates a new, empty folder in the temporary directory.
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "endpointkit-bench-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes a file of `bytes` pattern bytes, 1 MiB at a time.
    func makeFile(named name: String, bytes: Int) throws -> URL {
        let file = url.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw BenchError.requestFailed("cannot create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let block = Self.pattern(count: min(bytes, 1 << 20))
        var written = 0
        while written < bytes {
            let count = min(block.count, bytes - written)
            try handle.write(contentsOf: count == block.count ? block : block.prefix(count))
            written += count
        }
        return file
    }

    /// Checks that a downloaded file has `expectedSize` bytes, then deletes it.
    func removeFile(_ file: URL, expectedSize: Int) throws {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? -1
        try? FileManager.default.removeItem(at: file)
        guard size == expectedSize else {
            throw BenchError.requestFailed("\(file.lastPathComponent) has \(size) bytes, expected \(expectedSize)")
        }
    }

    /// Deletes the folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Byte `i` is `i % 251`: not a multiple of the server's 256-byte pattern, never all zeros.
    private static func pattern(count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 % 251) })
    }
}
