import EndpointKitOpenAPIReader

/// One file the generator writes.
package struct GeneratedFile: Sendable, Hashable {
    /// The file name (no directories).
    package var name: String
    /// The Swift source.
    package var contents: String
}

/// What a generation produced.
package struct GenerationResult: Sendable {
    /// The files, in a fixed order.
    package var files: [GeneratedFile]
    /// The problems found, in document order of discovery.
    package var diagnostics: [Diagnostic]
    /// The operations generated.
    package var operations: Int
    /// The schema declarations generated.
    package var schemas: Int
    /// What was skipped: `operation NAME` or `schema NAME`, in order.
    package var skipped: [String]

    /// The lines of all files.
    package var lines: Int { files.reduce(0) { $0 + $1.contents.reduce(0) { $1 == "\n" ? $0 + 1 : $0 } } }
}

/// Generates EndpointKit requests and models from an OpenAPI document.
package enum Generator {
    /// Generates the files for `root` as `options` say. Throws only when the document is not
    /// OpenAPI 3; everything else that cannot be generated is a diagnostic and is skipped.
    package static func generate(_ root: Node, options: GeneratorOptions) throws(Unsupported) -> GenerationResult {
        var diagnostics: [Diagnostic] = []
        let document = try Document.read(root, diagnostics: &diagnostics)
        let operations = document.operations.filter { operation in
            (options.tags.isEmpty || operation.tags.contains { options.tags.contains($0) })
                && options.selects(path: operation.path)
                && (options.operationIDs.isEmpty || operation.operationID.map(options.operationIDs.contains) == true)
        }
        let prefix = options.typePrefix
        let support = SupportNames(prefix: prefix)
        var translator = SchemaTranslator(
            references: References(root: root), skipped: Set(options.skippedSchemas), prefix: prefix,
            taken: NameScope(reserving: support.all))
        let requestNames = operations.map { translator.claimTypeName(RequestBuilder.baseName(of: $0)) }
        let interceptorNames = document.securitySchemes.map {
            translator.claimTypeName(Naming.typeName($0.name) + "Interceptor")
        }
        translator.nameComponents(document.schemas)
        var skipped: [String] = []
        if !options.filters {
            for schema in document.schemas where !options.skippedSchemas.contains(schema.name) {
                do {
                    _ = try translator.component(
                        schema.name, from: JSONPointer(["components", "schemas", schema.name]))
                } catch {
                    skipped.append("schema \(schema.name)")
                }
            }
        }
        let builder = RequestBuilder(multipartFile: support.multipartFile)
        var plans: [RequestPlan] = []
        for (operation, name) in zip(operations, requestNames) {
            do {
                plans.append(
                    try builder.plan(operation, name: name, translator: &translator, diagnostics: &diagnostics))
            } catch {
                diagnostics.append(
                    Diagnostic(.error, at: error.pointer, error.message + "; the operation \(name) is skipped"))
                skipped.append("operation \(name)")
            }
        }
        diagnostics += translator.diagnostics
        var declarations = translator.declarations
        prune(&declarations, &plans, taken: translator.typeNames.taken, support: support, &diagnostics, &skipped)
        declarations = Recursion.boxing(declarations)
        let layout = Layout(
            options: options, support: support, declarations: declarations, plans: plans, document: document,
            interceptorNames: interceptorNames)
        return GenerationResult(
            files: layout.files(), diagnostics: diagnostics, operations: plans.count, schemas: declarations.count,
            skipped: skipped)
    }

    /// Removes declarations and requests that use a type that is not generated, until none does.
    private static func prune(
        _ declarations: inout [Declaration], _ plans: inout [RequestPlan], taken: Set<String>, support: SupportNames,
        _ diagnostics: inout [Diagnostic], _ skipped: inout [String]
    ) {
        var declared = Set(declarations.map(\.name)).union(support.all)
        func missing(_ names: [String]) -> String? { names.first { taken.contains($0) && !declared.contains($0) } }
        var changed = true
        while changed {
            changed = false
            declarations.removeAll { declaration in
                guard let name = missing(declaration.referencedNames) else { return false }
                diagnostics.append(
                    Diagnostic(
                        .error, at: JSONPointer(), "\(declaration.name) uses \(name), which is skipped; it is skipped"))
                skipped.append("schema \(declaration.name)")
                declared.remove(declaration.name)
                changed = true
                return true
            }
        }
        plans.removeAll { plan in
            guard let name = missing(plan.referencedNames) else { return false }
            diagnostics.append(
                Diagnostic(
                    .error, at: plan.operation.pointer,
                    "it uses \(name), which is skipped; the operation \(plan.name) is skipped"))
            skipped.append("operation \(plan.name)")
            return true
        }
    }
}

/// The names of the types every generation may declare besides schemas and requests.
struct SupportNames {
    /// The shared JSON coders.
    let coders: String
    /// The box of recursive properties.
    let indirect: String
    /// The file of a multipart part.
    let multipartFile: String
    /// The servers.
    let servers: String
    /// The operation contracts (with samples).
    let contracts: String
    /// The sample requests (with samples).
    let sampleRequests: String

    /// The names with `prefix`.
    init(prefix: String) {
        coders = prefix + "Coders"
        indirect = prefix + "Indirect"
        multipartFile = prefix + "MultipartFile"
        servers = prefix + "Servers"
        contracts = prefix + "Contracts"
        sampleRequests = prefix + "SampleRequests"
    }

    /// All of them.
    var all: Set<String> { [coders, indirect, multipartFile, servers, contracts, sampleRequests] }
}
