import Foundation
import PackagePlugin

/// `swift package generate-endpoints --spec openapi.yaml --output Sources/API [options]`: runs
/// `endpointkit-openapi generate` with the arguments given, so a team generates its endpoints into
/// the package and commits them. `--help` lists the options.
@main
struct GenerateEndpoints: CommandPlugin {
    /// Runs the generator with the command's arguments.
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "endpointkit-openapi")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["generate"] + arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("endpointkit-openapi exited with status \(process.terminationStatus)")
        }
    }
}
