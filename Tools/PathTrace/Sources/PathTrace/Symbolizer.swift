import Foundation

/// What the debug information says about one address.
struct Symbol: Sendable {
    /// The linkage (mangled) name of the function holding the address.
    let mangledName: String
    /// The function's first address: identifies the function.
    let start: UInt
    /// The file the function is declared in (`DW_AT_decl_file`), or, when the debug information
    /// has none, the file of the address's line; "" when unknown.
    let file: String
    /// The function's first line, or the address's line.
    let line: Int
}

/// Symbolizes addresses with `llvm-symbolizer` and demangles names with `swift-demangle`.
struct Symbolizer {
    let symbolizer: String
    let demangler: String
    let executable: String

    /// Finds the tools: `PATH_TRACE_SYMBOLIZER` / `PATH_TRACE_DEMANGLER`, else the Swift
    /// toolchain's own (next to `swift` on `PATH`), else the first on `PATH`.
    static func locate(executable: String) throws -> Symbolizer {
        let environment = ProcessInfo.processInfo.environment
        let searchPath = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        func find(_ name: String, override: String) throws -> String {
            if let path = environment[override], !path.isEmpty { return path }
            let fileManager = FileManager.default
            var folders: [String] = []
            for folder in searchPath where fileManager.isExecutableFile(atPath: folder + "/swift") {
                let swift = URL(fileURLWithPath: folder + "/swift").resolvingSymlinksInPath()
                folders.append(swift.deletingLastPathComponent().path)
            }
            folders += searchPath
            for folder in folders where fileManager.isExecutableFile(atPath: folder + "/" + name) {
                return folder + "/" + name
            }
            throw TraceError.message("\(name) not found on PATH (or set \(override))")
        }
        return Symbolizer(
            symbolizer: try find("llvm-symbolizer", override: "PATH_TRACE_SYMBOLIZER"),
            demangler: try find("swift-demangle", override: "PATH_TRACE_DEMANGLER"),
            executable: executable)
    }

    /// The symbol of each file address (addresses it cannot place are left out).
    func symbolize(_ addresses: [UInt]) throws -> [UInt: Symbol] {
        var symbols: [UInt: Symbol] = [:]
        let batchSize = 2000
        var offset = 0
        while offset < addresses.count {
            let batch = Array(addresses[offset..<min(offset + batchSize, addresses.count)])
            offset += batchSize
            let output = try run(
                symbolizer,
                ["--obj=\(executable)", "--output-style=JSON", "--functions=linkage"]
                    + batch.map { "0x" + String($0, radix: 16) })
            // Addresses given as arguments come back as one JSON array, in their order.
            guard let entries = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]],
                entries.count == batch.count
            else { throw TraceError.message("\(symbolizer) did not answer with one JSON entry an address") }
            for (address, entry) in zip(batch, entries) {
                if let symbol = Self.parse(entry) { symbols[address] = symbol }
            }
        }
        return symbols
    }

    /// Simplified demangled names, by mangled name.
    func demangle(_ names: [String]) throws -> [String: String] {
        var demangled: [String: String] = [:]
        let batchSize = 500
        var offset = 0
        while offset < names.count {
            let batch = Array(names[offset..<min(offset + batchSize, names.count)])
            offset += batchSize
            let lines = try run(demangler, ["--simplified", "--compact"] + batch).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (name, line) in zip(batch, lines) { demangled[name] = String(line) }
        }
        return demangled
    }

    /// One entry of `llvm-symbolizer`'s JSON: the last frame of `Symbol` is the function that holds
    /// the address (the earlier ones, if any, were inlined into it).
    private static func parse(_ entry: [String: Any]) -> Symbol? {
        guard let frames = entry["Symbol"] as? [[String: Any]], let frame = frames.last,
            let name = frame["FunctionName"] as? String, !name.isEmpty,
            let startText = frame["StartAddress"] as? String,
            let start = UInt(startText.dropFirst(2), radix: 16)
        else { return nil }
        let startFile = frame["StartFileName"] as? String ?? ""
        let file = startFile.isEmpty ? frame["FileName"] as? String ?? "" : startFile
        let line = (startFile.isEmpty ? frame["Line"] : frame["StartLine"]) as? Int ?? 0
        return Symbol(mangledName: name, start: start, file: file, line: line)
    }

    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TraceError.message("\(tool) exited with status \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
