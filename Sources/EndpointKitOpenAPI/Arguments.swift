import EndpointKitOpenAPIGenerator

/// The command line, read by hand: `generate --spec FILE --output DIR [options]`.
struct Arguments {
    /// A problem with the arguments, said to the user.
    struct Problem: Error {
        /// What is wrong.
        var message: String
    }

    /// The document's path.
    var spec = ""
    /// The output directory.
    var output = ""
    /// The generator's options.
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
          --tag TAG               Only operations with this tag (repeatable).
          --path PATH             Only operations on this path or below it: /users selects
                                  /users and /users/{id} (repeatable).
          --operation ID          Only the operation with this operationId (repeatable).
          --access LEVEL          public (default), package or internal.
          --prefix PREFIX         Put before every generated type name.
          --skip-schema NAME      Do not generate this component schema; uses of it are
                                  JSONValue (repeatable).
          --layout LAYOUT         single (default: one file), operation (a file per operation)
                                  or tag (a file per first tag); models have their own file.
          --no-samples            Do not write sample responses.
          -h, --help              Show this help.
        """

    /// Reads the arguments after the program name.
    init(_ arguments: [String]) throws(Problem) {
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
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h": help = true
            case "--spec": spec = try value(argument)
            case "--output": output = try value(argument)
            case "--tag": options.tags.append(try value(argument))
            case "--path": options.paths.append(try value(argument))
            case "--operation": options.operationIDs.append(try value(argument))
            case "--prefix":
                let prefix = try value(argument)
                guard prefix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }),
                    prefix.first?.isNumber != true
                else { throw Problem(message: "--prefix must be letters, digits and _, not starting with a digit") }
                options.typePrefix = prefix
            case "--skip-schema": options.skippedSchemas.append(try value(argument))
            case "--no-samples": options.samples = false
            case "--access":
                let level = try value(argument)
                guard let access = GeneratorOptions.AccessLevel(rawValue: level) else {
                    throw Problem(message: "--access must be public, package or internal, not \(level)")
                }
                options.accessLevel = access
            case "--layout":
                let name = try value(argument)
                guard let layout = GeneratorOptions.Layout(rawValue: name) else {
                    throw Problem(message: "--layout must be single, operation or tag, not \(name)")
                }
                options.layout = layout
            default: throw Problem(message: "unknown option \(argument)")
            }
        }
        if help { return }
        if spec.isEmpty { throw Problem(message: "--spec is required") }
        if output.isEmpty { throw Problem(message: "--output is required") }
    }
}
