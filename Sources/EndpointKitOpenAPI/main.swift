import EndpointKitOpenAPIGenerator
import EndpointKitOpenAPIReader
import Foundation

/// Writes a line to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Runs the command and returns the exit status.
func run() -> Int32 {
    let arguments: Arguments
    do {
        arguments = try Arguments(Array(CommandLine.arguments.dropFirst())) { path in
            (try? Data(contentsOf: URL(fileURLWithPath: path))).map { [UInt8]($0) }
        }
    } catch {
        printError("error: \(error.message)" + (error.usage ? "\n\n\(Arguments.usage)" : ""))
        return error.status
    }
    if arguments.help {
        print(Arguments.usage)
        return 0
    }
    let start = Date()
    let specURL = URL(fileURLWithPath: arguments.spec)
    guard let data = try? Data(contentsOf: specURL) else {
        printError("error: cannot read \(arguments.spec)")
        return 66
    }
    var options = arguments.options
    options.sourceName = specURL.lastPathComponent
    let root: Node
    do { root = try DocumentReader.read([UInt8](data)) } catch {
        printError("error: \(arguments.spec):\(error.description)")
        return 65
    }
    let result: GenerationResult
    do { result = try Generator.generate(root, options: options) } catch {
        printError("error: \(arguments.spec): \(error.pointer): \(error.message)")
        return 65
    }
    for diagnostic in result.diagnostics { printError("\(arguments.spec): \(diagnostic)") }
    do { try OutputDirectory(url: URL(fileURLWithPath: arguments.output)).write(result.files) } catch {
        printError("error: " + ((error as? Arguments.Problem)?.message ?? "cannot write \(arguments.output): \(error)"))
        return 73
    }
    let seconds = Date().timeIntervalSince(start)
    print(
        "Generated \(result.operations) operations, \(result.schemas) schemas, \(result.skipped.count) skipped, "
            + "\(result.lines) lines in \(result.files.count) files (\(String(format: "%.2f", seconds)) s)")
    if !result.skipped.isEmpty { print("Skipped: " + result.skipped.joined(separator: ", ")) }
    return 0
}

exit(run())
