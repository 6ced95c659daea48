/// Writes the types generated code shares: the JSON coders, the box of recursive properties and
/// the file of a multipart part.
struct SupportWriter {
    /// The access modifier with its space.
    let access: String
    /// The type name prefix.
    let prefix: String

    /// The shared coders: dates in ISO 8601, read with or without fractional seconds.
    func coders(into code: inout CodeWriter) {
        code.line("/// The JSON coders of the generated requests: dates in ISO 8601, read with or without fractional")
        code.line("/// seconds; `Data` in Base64.")
        code.block("nonisolated \(access)enum \(prefix)Coders") { code in
            code.line("/// A decoder for the responses.")
            code.block("\(access)static var decoder: JSONDecoder") { code in
                code.line("let decoder = JSONDecoder()")
                code.block("decoder.dateDecodingStrategy = .custom") { code in
                    code.line("decoder in")
                    code.line("let container = try decoder.singleValueContainer()")
                    code.line("let text = try container.decode(String.self)")
                    code.block(
                        "if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)"
                    ) {
                        $0.line("return date")
                    }
                    code.block("if let date = try? Date.ISO8601FormatStyle().parse(text)") { $0.line("return date") }
                    code.line("throw DecodingError.dataCorruptedError(")
                    code.line("    in: container, debugDescription: \"Not an ISO 8601 date: \\(text)\")")
                }
                code.line("return decoder")
            }
            code.line()
            code.line("/// An encoder for the bodies.")
            code.block("\(access)static var encoder: JSONEncoder") { code in
                code.line("let encoder = JSONEncoder()")
                code.line("encoder.dateEncodingStrategy = .iso8601")
                code.line("encoder.outputFormatting = [.sortedKeys]")
                code.line("return encoder")
            }
            code.line()
            code.line("/// A date as ISO 8601 text, for a parameter.")
            code.block("\(access)static func string(from date: Date) -> String") { code in
                code.line("date.formatted(Date.ISO8601FormatStyle())")
            }
            code.line()
            code.line("/// A value as JSON, for a part or parameter; empty when it cannot be encoded.")
            code.block("\(access)static func jsonData<Value: Encodable>(_ value: Value) -> Data") { code in
                code.line("(try? encoder.encode(value)) ?? Data()")
            }
            code.line()
            code.line("/// A value as JSON text, for a parameter.")
            code.block("\(access)static func jsonText<Value: Encodable>(_ value: Value) -> String") { code in
                code.line("String(decoding: jsonData(value), as: UTF8.self)")
            }
        }
    }

    /// The box that stores a property of a type that contains itself.
    func indirect(into code: inout CodeWriter) {
        code.line("/// A value stored by reference, so that a struct can contain itself; encoded as the value.")
        code.block(
            "nonisolated \(access)struct \(prefix)Indirect<Wrapped: Codable & Sendable>: Codable, Sendable"
        ) { code in
            code.line("/// The storage.")
            code.block("private final class Storage: Sendable") { code in
                code.line("/// The value.")
                code.line("let value: Wrapped")
                code.line("/// Stores `value`.")
                code.line("init(_ value: Wrapped) { self.value = value }")
            }
            code.line()
            code.line("/// The storage of the value.")
            code.line("private let storage: Storage")
            code.line("/// The value.")
            code.line("\(access)var value: Wrapped { storage.value }")
            code.line("/// Boxes `value`.")
            code.line("\(access)init(_ value: Wrapped) { storage = Storage(value) }")
            code.line("/// Decodes the value.")
            code.line("\(access)init(from decoder: any Decoder) throws { self.init(try Wrapped(from: decoder)) }")
            code.line("/// Encodes the value.")
            code.line("\(access)func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }")
        }
        code.line()
        code.line("/// Equal when the values are.")
        code.block("nonisolated extension \(prefix)Indirect: Equatable where Wrapped: Equatable") { code in
            code.line("/// Whether the values are equal.")
            code.line("\(access)static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }")
        }
    }

    /// The file of a multipart part: bytes, a file name and a type.
    func multipartFile(into code: inout CodeWriter) {
        code.line("/// A file sent as a part of a `multipart/form-data` body.")
        code.block("nonisolated \(access)struct \(prefix)MultipartFile: Hashable, Sendable") { code in
            code.line("/// The bytes.")
            code.line("\(access)var data: Data")
            code.line("/// The file name sent with the part.")
            code.line("\(access)var fileName: String")
            code.line("/// The MIME type; `nil` for the one of the file name's extension.")
            code.line("\(access)var contentType: String?")
            code.line()
            code.line("/// A file part.")
            code.block("\(access)init(data: Data, fileName: String, contentType: String? = nil)") { code in
                code.line("self.data = data")
                code.line("self.fileName = fileName")
                code.line("self.contentType = contentType")
            }
        }
    }
}
