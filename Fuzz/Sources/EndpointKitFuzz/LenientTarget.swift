import Foundation

@testable import EndpointKit

/// A model of lenient properties, one of each supported type.
struct LenientModel: Decodable {
    @Lenient var string: String
    @Lenient var int: Int
    @Lenient var int64: Int64
    @Lenient var double: Double
    @Lenient var bool: Bool
    @Lenient var strings: [String]
    @Lenient var optional: Int?
}

/// Lenient model decoding and `EnvelopeScalar`.
///
/// Properties: a JSON object always decodes into a model of `@Lenient` properties; a value that
/// already has the declared type is kept as it is; numeric text and the boolean words convert;
/// `EnvelopeScalar.matches` is reflexive and symmetric and survives a JSON round trip.
enum LenientTarget {
    static func run(_ input: inout FuzzInput) {
        let body = Data(input.rest())
        let decoder = JSONDecoder()
        guard let object = try? decoder.decode([String: JSONValue].self, from: body) else {
            _ = try? decoder.decode(LenientModel.self, from: body)
            _ = try? decoder.decode([LenientModel].self, from: body)
            return
        }
        let model: LenientModel
        do {
            model = try decoder.decode(LenientModel.self, from: body)
        } catch {
            expect(false, "a JSON object did not decode leniently: \(error)")
            return
        }
        if case .string(let text)? = object["string"] { expect(model.string == text, "string \(text) changed") }
        if case .int(let value)? = object["int"] { expect(model.int == value, "int \(value) became \(model.int)") }
        if case .string(let text)? = object["int"], let value = Int(text) {
            expect(model.int == value, "int text \(text) became \(model.int)")
        }
        if case .bool(let flag)? = object["int"] { expect(model.int == (flag ? 1 : 0), "bool to int") }
        if case .double(let value)? = object["double"] {
            expect(model.double == value || (model.double.isNaN && value.isNaN), "double \(value) changed")
        }
        if case .string(let text)? = object["bool"] {
            switch text.lowercased() {
            case "true", "yes", "y", "1": expect(model.bool, "\(text) is not true")
            default: expect(!model.bool || text.lowercased() != "no", "\(text) is not false")
            }
        }
        switch object["strings"] {
        case .array(let values)?:
            let texts = values.compactMap { value -> String? in
                if case .string(let text) = value { return text }
                return nil
            }
            expect(
                model.strings == (texts.count == values.count ? texts : []),
                "strings \(values) became \(model.strings)")
        default: expect(model.strings.isEmpty, "a non-array became \(model.strings)")
        }
        if object["optional"] == nil || object["optional"] == .null {
            expect(model.optional == nil, "a missing optional became \(String(describing: model.optional))")
        }
        for value in object.values { checkScalar(value, decoder: decoder) }
    }

    private static func checkScalar(_ value: JSONValue, decoder: JSONDecoder) {
        guard let data = try? JSONEncoder().encode(value),
            let scalar = try? decoder.decode(EnvelopeScalar.self, from: data)
        else { return }
        expect(scalar.matches(scalar), "\(scalar) does not match itself")
        for other: EnvelopeScalar in [0, 1, "0", "1", true, false, .double(1.5), "ok", .string(scalar.description)] {
            expect(scalar.matches(other) == other.matches(scalar), "matches is not symmetric: \(scalar), \(other)")
        }
        _ = scalar.intValue
        if let encoded = try? JSONEncoder().encode(scalar),
            let decoded = try? decoder.decode(EnvelopeScalar.self, from: encoded)
        {
            expect(decoded.matches(scalar), "\(scalar) became \(decoded) through JSON")
        }
    }
}
