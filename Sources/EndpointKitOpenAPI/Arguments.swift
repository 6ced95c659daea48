import EndpointKitOpenAPIGenerator
import EndpointKitOpenAPIReader

/// The command line, read by hand: `generate --spec FILE --output DIR [options]`.
struct Arguments {
    /// A problem with the arguments, said to the user.
    struct Problem: Error {
        /// What is wrong.
        var message: String
        /// The exit status: 64 (usage), 65 (a configuration that cannot be read), 66 (no such file).
        var status: Int32 = 64
        /// Whether the usage text follows the message.
        var usage = true
    }

    /// The document's path.
    var spec = ""
    /// The output directory.
    var output = ""
    /// The generator's options: the configuration file's, then the command line's.
    var options = GeneratorOptions()
    /// Whether `--help` was asked for.
    var help = false

    /// The usage text.
    static let usage = """
        USAGE: endpointkit-openapi generate --spec FILE --output DIR [options]

        Generates EndpointKit request types, models, servers, security interceptors and sample
        responses from an OpenAPI 3.0 or 3.1 document (JSON or YAML).

        OPTIONS:
          --spec FILE             The OpenAPI document.
          --output DIR            Where to write the Swift files (created if needed). Only files
                                  this tool wrote there before are replaced or removed.
          --config FILE           Options from a YAML or JSON mapping with the keys tags, paths,
                                  operations, skipSchemas (lists of strings), access, prefix,
                                  layout, name (strings), modelFiles (an integer) and samples
                                  (true or false). An option also given on the command line,
                                  before or after --config, is the command line's: a repeated
                                  option's list replaces the file's list.
          --tag TAG               Only operations with this tag (repeatable).
          --path PATH             Only operations on this path or below it: /users selects
                                  /users and /users/{id} (repeatable).
          --operation ID          Only the operation with this operationId (repeatable).
          --access LEVEL          public (default), package or internal.
          --prefix PREFIX         Put before every generated type name.
          --skip-schema NAME      Do not generate this component schema; uses of it are
                                  JSONValue (repeatable).
          --layout LAYOUT         single (default): NAME.swift (requests, servers, security),
                                  NAME+Models1.swift... and NAME+Samples.swift, the same files
                                  whatever the document. operation (a file per operation) or
                                  tag (a file per first tag): Models1.swift..., Support.swift,
                                  Security.swift and the requests' files.
          --name NAME             The single layout's base file name (default API).
          --model-files N         Exactly N model files, the declarations spread over them by
                                  lines (some may hold none). Default: one per about 1500 lines,
                                  so that they compile in parallel and in less memory.
          --no-samples            Do not write sample responses.
          --equatable             Make models and unions Equatable (enums always are); off by
                                  default because it makes the module slower to build.
          -h, --help              Show this help.
        """

    /// Reads the arguments after the program name; `readFile` reads the `--config` file.
    init(_ arguments: [String], readFile: (String) -> [UInt8]? = { _ in nil }) throws(Problem) {
        var remaining = arguments[...]
        guard let command = remaining.popFirst() else { throw Problem(message: "no command: use generate") }
        if command == "--help" || command == "-h" || command == "help" {
            help = true
            return
        }
        guard command == "generate" else { throw Problem(message: "unknown command \(command): use generate") }
        func value(_ option: String) throws(Problem) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw Problem(message: "\(option) needs a value")
            }
            return value
        }
        var config: String?
        var line = Overrides()
        do {
            while let argument = remaining.popFirst() {
                switch argument {
                case "--help", "-h": help = true
                case "--spec": spec = try value(argument)
                case "--output": output = try value(argument)
                case "--config": config = try value(argument)
                case "--tag": line.tags.append(try value(argument))
                case "--path": line.paths.append(try value(argument))
                case "--operation": line.operationIDs.append(try value(argument))
                case "--skip-schema": line.skippedSchemas.append(try value(argument))
                case "--prefix": line.typePrefix = try GeneratorOptions.prefix(value(argument), argument)
                case "--no-samples": line.samples = false
                case "--equatable": line.equatable = true
                case "--access": line.accessLevel = try GeneratorOptions.accessLevel(value(argument), argument)
                case "--layout": line.layout = try GeneratorOptions.layout(value(argument), argument)
                case "--name": line.name = try GeneratorOptions.fileName(value(argument), argument)
                case "--model-files": line.modelFiles = try GeneratorOptions.modelFiles(value(argument), argument)
                default: throw Problem(message: "unknown option \(argument)")
                }
            }
        } catch let error as OptionError {
            throw Problem(message: error.message)
        } catch let error as Problem {
            throw error
        } catch {
            throw Problem(message: "\(error)")
        }
        if help { return }
        if spec.isEmpty { throw Problem(message: "--spec is required") }
        if output.isEmpty { throw Problem(message: "--output is required") }
        if let config {
            guard let bytes = readFile(config) else {
                throw Problem(message: "cannot read \(config)", status: 66, usage: false)
            }
            do { try options.apply(configuration: DocumentReader.read(bytes)) } catch let error as ReadError {
                throw Problem(message: "\(config):\(error.description)", status: 65, usage: false)
            } catch let error as OptionError {
                throw Problem(message: "\(config): \(error.message)", usage: false)
            } catch {
                throw Problem(message: "\(config): \(error)", usage: false)
            }
        }
        line.apply(to: &options)
    }
}

/// The options the command line gives, which win over the configuration file's.
private struct Overrides {
    /// `--tag`s.
    var tags: [String] = []
    /// `--path`s.
    var paths: [String] = []
    /// `--operation`s.
    var operationIDs: [String] = []
    /// `--skip-schema`s.
    var skippedSchemas: [String] = []
    /// `--access`.
    var accessLevel: GeneratorOptions.AccessLevel?
    /// `--prefix`.
    var typePrefix: String?
    /// `--layout`.
    var layout: GeneratorOptions.Layout?
    /// `--name`.
    var name: String?
    /// `--model-files`.
    var modelFiles: Int?
    /// `--no-samples`.
    var samples: Bool?
    /// `--equatable`.
    var equatable: Bool?

    /// Sets the options given; a list given replaces the configuration's.
    func apply(to options: inout GeneratorOptions) {
        if !tags.isEmpty { options.tags = tags }
        if !paths.isEmpty { options.paths = paths }
        if !operationIDs.isEmpty { options.operationIDs = operationIDs }
        if !skippedSchemas.isEmpty { options.skippedSchemas = skippedSchemas }
        if let accessLevel { options.accessLevel = accessLevel }
        if let typePrefix { options.typePrefix = typePrefix }
        if let layout { options.layout = layout }
        if let name { options.name = name }
        if let modelFiles { options.modelFiles = modelFiles }
        if let samples { options.samples = samples }
        if let equatable { options.equatable = equatable }
    }
}
