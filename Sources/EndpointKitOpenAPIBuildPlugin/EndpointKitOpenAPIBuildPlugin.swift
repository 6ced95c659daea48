import Foundation
import PackagePlugin

/// Generates a target's endpoints while it builds: the target holds an OpenAPI document named
/// `openapi.yaml`, `openapi.yml` or `openapi.json`, and optionally `endpointkit-openapi.yaml` with
/// the generator's options. The generated Swift goes to the build folder, never into the sources.
///
/// Sample responses, sample requests and contracts are generated when the target depends on
/// EndpointKitStubs (or EndpointKitTesting), which they import.
@main
struct EndpointKitOpenAPIBuildPlugin: BuildToolPlugin {
    /// The documents the plugin reads, in the order it looks for them.
    static let documentNames = ["openapi.yaml", "openapi.yml", "openapi.json"]
    /// The file of options, in the target beside the document.
    static let configurationName = "endpointkit-openapi.yaml"

    /// One build command: the generator's single-file layout, whose files are known in advance.
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles.map(\.url)
        guard
            let document = Self.documentNames.lazy.compactMap({ name in files.first { $0.lastPathComponent == name } })
                .first
        else {
            Diagnostics.warning(
                "\(target.name): no openapi.yaml, openapi.yml or openapi.json in the target; nothing generated")
            return []
        }
        let configuration = files.first { $0.lastPathComponent == Self.configurationName }
        let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedEndpoints")
        var arguments = [
            "generate", "--spec", document.path, "--output", output.path, "--layout", "single", "--name",
            Self.baseName, "--model-files", "\(Self.modelFiles)",
        ]
        if let configuration { arguments += ["--config", configuration.path] }
        let samples = Self.dependsOnStubs(target)
        if !samples { arguments.append("--no-samples") }
        return [
            .buildCommand(
                displayName: "Generating endpoints from \(document.lastPathComponent)",
                executable: try context.tool(named: "endpointkit-openapi").url,
                arguments: arguments,
                inputFiles: [document] + (configuration.map { [$0] } ?? []),
                outputFiles: Self.outputNames(samples: samples).map { output.appending(path: $0) })
        ]
    }

    /// The base name of the generated files.
    static let baseName = "GeneratedEndpoints"
    /// How many files the models are split into, so that a build uses both cores and each
    /// compiler process holds a part: fixed, because a build command names its outputs in advance.
    static let modelFiles = 4

    /// The files one generation writes, known before it runs.
    static func outputNames(samples: Bool) -> [String] {
        [baseName + ".swift"] + (1...modelFiles).map { "\(baseName)+Models\($0).swift" }
            + (samples ? [baseName + "+Samples.swift"] : [])
    }

    /// Whether the target can import EndpointKitStubs, which samples and contracts need.
    static func dependsOnStubs(_ target: SourceModuleTarget) -> Bool {
        var seen = Set<String>()
        var pending = target.dependencies
        while let dependency = pending.popLast() {
            switch dependency {
            case .product(let product):
                if ["EndpointKitStubs", "EndpointKitTesting"].contains(product.name) { return true }
                for next in product.targets where seen.insert(next.name).inserted { pending += next.dependencies }
            case .target(let next):
                if ["EndpointKitStubs", "EndpointKitTesting"].contains(next.name) { return true }
                if seen.insert(next.name).inserted { pending += next.dependencies }
            @unknown default:
                continue
            }
        }
        return false
    }
}
