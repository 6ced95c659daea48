/// Writes the declarations made for schemas.
struct ModelWriter {
    /// The access modifier with its space (`public `, or empty for internal).
    let access: String
    /// The name of the box type for recursive properties.
    let indirect: String
    /// The conformances of structs and unions: `Codable, Sendable`, with `Equatable` when asked.
    let conformances: String

    /// Writes one declaration.
    func write(_ declaration: Declaration, into code: inout CodeWriter) {
        switch declaration {
        case .structure(let name, let documentation, let properties):
            structure(name, documentation, properties, into: &code)
        case .enumeration(let name, let documentation, let cases, let integer):
            enumeration(name, documentation, cases, integer: integer, into: &code)
        case .union(let name, let documentation, let cases, let discriminator):
            UnionWriter(access: access, conformances: conformances).write(
                name, documentation, cases, discriminator, into: &code)
        case .alias(let name, let documentation, let type):
            code.documentation(documentation ?? "The `\(name)` schema.")
            code.line("\(access)typealias \(name) = \(type.code)")
        }
    }

    /// A struct with its properties, memberwise initializer and coding keys.
    private func structure(
        _ name: String, _ documentation: String?, _ properties: [Property], into code: inout CodeWriter
    ) {
        code.documentation(documentation ?? "The `\(name)` schema.")
        code.block("nonisolated \(access)struct \(name): \(conformances)") { code in
            for property in properties {
                let escaped = Naming.escaped(property.name)
                code.documentation(property.documentation ?? "`\(property.key)`.")
                guard property.boxed else {
                    code.line("\(access)var \(escaped): \(property.declaredType.code)")
                    continue
                }
                code.block("\(access)var \(escaped): \(property.declaredType.code)") { code in
                    if property.optional {
                        code.line("get { _\(property.name)?.value }")
                        code.line("set { _\(property.name) = newValue.map(\(indirect).init) }")
                    } else {
                        code.line("get { _\(property.name).value }")
                        code.line("set { _\(property.name) = \(indirect)(newValue) }")
                    }
                }
                code.line("/// The storage of `\(property.name)`, boxed: the type contains itself through it.")
                code.line(
                    "private var _\(property.name): \(indirect)<\(property.type.code)>\(property.optional ? "?" : "")")
            }
            code.line()
            code.line("/// Creates a value from its properties; optional ones default to `nil`.")
            let parameters = properties.map { property in
                "\(Naming.escaped(property.name)): \(property.declaredType.code)\(property.optional ? " = nil" : "")"
            }
            code.block("\(access)init(\(parameters.joined(separator: ", ")))") { code in
                for property in properties {
                    let escaped = Naming.escaped(property.name)
                    if !property.boxed {
                        code.line("self.\(escaped) = \(escaped)")
                    } else if property.optional {
                        code.line("self._\(property.name) = \(escaped).map(\(indirect).init)")
                    } else {
                        code.line("self._\(property.name) = \(indirect)(\(escaped))")
                    }
                }
            }
            code.line()
            code.line("/// The JSON keys of the properties.")
            code.block("enum CodingKeys: String, CodingKey") { code in
                for property in properties {
                    let name = property.boxed ? "_" + property.name : Naming.escaped(property.name)
                    code.line(property.key == name ? "case \(name)" : "case \(name) = \(Naming.literal(property.key))")
                }
            }
        }
    }

    /// A string or integer enum with an `unknown` case for values this version does not list.
    private func enumeration(
        _ name: String, _ documentation: String?, _ cases: [(name: String, value: String)], integer: Bool,
        into code: inout CodeWriter
    ) {
        let raw = integer ? "Int" : "String"
        let literal: (String) -> String = { integer ? $0 : Naming.literal($0) }
        code.documentation(documentation ?? "The `\(name)` schema.")
        code.block("nonisolated \(access)enum \(name): RawRepresentable, Codable, Equatable, Sendable") { code in
            for item in cases {
                code.documentation("`\(CodeWriter.documentationLines(item.value).joined(separator: " "))`.")
                code.line("case \(Naming.escaped(item.name))")
            }
            code.line("/// A value this version of the API description does not list.")
            code.line("case unknown(\(raw))")
            code.line()
            code.line("/// The case for `rawValue`: ``unknown(_:)`` for a value not listed.")
            code.block("\(access)init(rawValue: \(raw))") { code in
                code.switchBlock("switch rawValue") { code in
                    for item in cases { code.line("case \(literal(item.value)): self = .\(Naming.escaped(item.name))") }
                    code.line("default: self = .unknown(rawValue)")
                }
            }
            code.line()
            code.line("/// The value as sent.")
            code.block("\(access)var rawValue: \(raw)") { code in
                code.switchBlock("switch self") { code in
                    for item in cases { code.line("case .\(Naming.escaped(item.name)): \(literal(item.value))") }
                    code.line("case .unknown(let value): value")
                }
            }
            code.line()
            code.line("/// Decodes any value: one not listed is ``unknown(_:)``.")
            code.block("\(access)init(from decoder: any Decoder) throws") { code in
                code.line("self.init(rawValue: try decoder.singleValueContainer().decode(\(raw).self))")
            }
            code.line()
            code.line("/// Encodes the raw value.")
            code.block("\(access)func encode(to encoder: any Encoder) throws") { code in
                code.line("var container = encoder.singleValueContainer()")
                code.line("try container.encode(rawValue)")
            }
        }
    }
}

/// Writes an enum for `oneOf`/`anyOf`.
struct UnionWriter {
    /// The access modifier with its space.
    let access: String
    /// `Codable, Sendable`, with `Equatable` when asked.
    let conformances: String

    /// The enum, decoded by the discriminator when there is one, else by trying each case in order.
    func write(
        _ name: String, _ documentation: String?, _ cases: [UnionCase], _ discriminator: String?,
        into code: inout CodeWriter
    ) {
        let tagged = cases.filter { !$0.values.isEmpty }
        let untagged = discriminator == nil ? cases : cases.filter { $0.values.isEmpty }
        let discriminator = tagged.isEmpty ? nil : discriminator
        code.documentation(documentation ?? "The `\(name)` schema: one of several types.")
        code.block("nonisolated \(access)indirect enum \(name): \(conformances)") { code in
            for item in cases {
                code.line("/// A `\(item.type.code)`.")
                code.line("case \(Naming.escaped(item.name))(\(item.type.code))")
            }
            if let discriminator {
                code.line()
                code.line("/// The property that says which case a value is.")
                code.block("private enum DiscriminatorKey: String, CodingKey") { code in
                    code.line("case discriminator = \(Naming.literal(discriminator))")
                }
            }
            code.line()
            code.line(
                discriminator == nil
                    ? "/// Decodes the first case whose type decodes the value."
                    : "/// Decodes the case the discriminator names; another value tries the cases without one.")
            code.block("\(access)init(from decoder: any Decoder) throws") { code in
                guard discriminator != nil else {
                    attempts(untagged, into: &code)
                    code.line("throw DecodingError.dataCorrupted(")
                    code.line(
                        "    DecodingError.Context(codingPath: decoder.codingPath, debugDescription: \"No case of \(name) matches.\"))"
                    )
                    return
                }
                code.line("let container = try decoder.container(keyedBy: DiscriminatorKey.self)")
                code.line("let kind = try container.decode(String.self, forKey: .discriminator)")
                code.switchBlock("switch kind") { code in
                    for item in tagged {
                        code.line("case \(item.values.map(Naming.literal).joined(separator: ", ")):")
                        code.line("    self = .\(Naming.escaped(item.name))(try \(item.type.code)(from: decoder))")
                        code.line("    return")
                    }
                    code.line("default:")
                    code.line("    break")
                }
                attempts(untagged, into: &code)
                code.line("throw DecodingError.dataCorruptedError(")
                code.line(
                    "    forKey: .discriminator, in: container, debugDescription: \"Unknown \(name) kind \\(kind).\")")
            }
            code.line()
            code.line("/// Encodes the case's value.")
            code.block("\(access)func encode(to encoder: any Encoder) throws") { code in
                code.switchBlock("switch self") { code in
                    for item in cases {
                        code.line("case .\(Naming.escaped(item.name))(let value): try value.encode(to: encoder)")
                    }
                }
            }
        }
    }

    /// Tries the cases in order, returning from the initializer at the first that decodes.
    private func attempts(_ cases: [UnionCase], into code: inout CodeWriter) {
        for item in cases {
            code.block("if let value = try? \(item.type.code)(from: decoder)") { code in
                code.line("self = .\(Naming.escaped(item.name))(value)")
                code.line("return")
            }
        }
    }
}
