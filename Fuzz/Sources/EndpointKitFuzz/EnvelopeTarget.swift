import Foundation

@testable import EndpointKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Envelope decoding: a body through each preset envelope (or one with fuzzed key paths) into
/// several payload types, the way the client decodes a 2xx response.
///
/// Properties: decoding succeeds or throws `BusinessFailure` / `DecodingError`, nothing else;
/// `inspect` agrees with `open` on success and on the business failure's code and message;
/// `NoEnvelope.inspect` only reports failures that have a message.
enum EnvelopeTarget {
    // swift-format-ignore: NeverForceUnwrap
    static let url = URL(string: "https://fuzz.example/items")!
    // swift-format-ignore: NeverForceUnwrap
    static let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!
    static let request = URLRequest(url: url)
    static let presets: [KeyPathEnvelope] = [
        .statusResult(), .errorIDResult(), .statusData(), .statusData(success: [0, "ok", true]),
        KeyPathEnvelope(status: "code", success: [0], message: "msg", payload: "data.items", page: "data.page"),
        KeyPathEnvelope(status: "meta.ok", success: [true], code: "meta.code", payload: ""),
    ]

    static func run(_ input: inout FuzzInput) {
        let envelope: any ResponseEnvelope
        let choice = input.choice(presets.count + 2)
        if choice < presets.count {
            envelope = presets[choice]
        } else if choice == presets.count {
            envelope = NoEnvelope()
        } else {
            envelope = KeyPathEnvelope(
                status: input.string(), success: [.int(Int(input.byte())), .string(input.string())],
                code: input.byte() & 1 == 0 ? nil : input.string(), message: input.string(),
                payload: input.string(), page: input.string(), payloadStringIsFailureMessage: input.byte() & 1 == 1)
        }
        let body = Data(input.rest())
        let decoder = JSONDecoder()
        check(envelope, body, decoder, JSONValue.self)
        check(envelope, body, decoder, Empty.self)
        check(envelope, body, decoder, [Int]?.self)
        check(envelope, body, decoder, String.self)
        check(envelope, body, decoder, LenientModel.self)
        check(envelope, body, decoder, [String: EnvelopeScalar].self)
        if let info = NoEnvelope().inspect(body, decoder: decoder) {
            expect(!info.isSuccess && info.message != nil, "NoEnvelope.inspect reported \(info)")
        }
    }

    private static func check<Value: Decodable>(
        _ envelope: any ResponseEnvelope, _ body: Data, _ decoder: JSONDecoder, _: Value.Type
    ) {
        let context = DecodingContext(
            data: body, response: response, request: request, decoder: decoder, envelope: envelope)
        let inspected = envelope.inspect(body, decoder: decoder)
        do {
            _ = try context.decodeDefault(Value.self)
            // An envelope's payload decoded: the envelope said success, and inspect agrees.
            if envelope is KeyPathEnvelope, Value.self != String.self, let info = context.envelopeInfo {
                expect(info.isSuccess, "decoded \(Value.self) although the envelope failed: \(info)")
                expect(
                    inspected?.isSuccess == true && inspected?.status == info.status && inspected?.code == info.code,
                    "inspect \(String(describing: inspected)) disagrees with open \(info)")
            }
        } catch let failure as BusinessFailure {
            expect(envelope is KeyPathEnvelope, "\(type(of: envelope)) threw \(failure)")
            expect(
                inspected?.isSuccess == false && inspected?.code == failure.code
                    && inspected?.message == failure.message,
                "inspect \(String(describing: inspected)) disagrees with the failure \(failure)")
        } catch is DecodingError {
        } catch {
            expect(false, "decoding \(Value.self) threw an untyped error: \(type(of: error)) \(error)")
        }
    }
}
