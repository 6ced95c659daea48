import Foundation

/// The libFuzzer entry point. The first byte of an input picks the target (unless
/// `ENDPOINTKIT_FUZZ_TARGET` names one); the rest is that target's input.
///
/// Every target checks properties, not only "does not crash": a broken property stops the run
/// through ``expect(_:_:)`` and libFuzzer keeps the input as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: start, count: count)
    let target = FuzzTarget.fixed ?? FuzzTarget.allCases[Int(bytes[0]) % FuzzTarget.allCases.count]
    var input = FuzzInput(Array(bytes.dropFirst()))
    switch target {
    case .envelope: EnvelopeTarget.run(&input)
    case .lenient: LenientTarget.run(&input)
    case .headers: HeaderTarget.run(&input)
    case .url: URLTarget.run(&input)
    case .yaml: DocumentTarget.run(&input)
    }
    return 0
}

/// The parts of EndpointKit the harness covers.
enum FuzzTarget: String, CaseIterable {
    /// Response envelopes (KeyPathEnvelope presets and custom paths, NoEnvelope) through
    /// `DecodingContext.decodeDefault`.
    case envelope
    /// `@Lenient` model properties and `EnvelopeScalar`.
    case lenient
    /// Request header validation, Content-Disposition file names, Cache-Control / Expires / Age,
    /// Retry-After, MIME and media types, TLS certificates, libcurl's header lines.
    case headers
    /// URL building: base URL, `RequestPath`, query items, array encodings, redaction.
    case url
    /// The OpenAPI generator's document readers: YAML, JSON and the choice between them.
    case yaml

    /// The target named by `ENDPOINTKIT_FUZZ_TARGET`, if any.
    static let fixed: FuzzTarget? = ProcessInfo.processInfo.environment["ENDPOINTKIT_FUZZ_TARGET"].flatMap {
        FuzzTarget(rawValue: $0)
    }
}

/// Stops the run with a message when a property does not hold; libFuzzer records the input.
func expect(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    guard !condition() else { return }
    FileHandle.standardError.write(Data("PROPERTY VIOLATED: \(message())\n".utf8))
    abort()
}
