import Foundation

@_spi(Internal) @testable import EndpointKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Header handling, one part per input (picked by the input's first byte).
enum HeaderTarget {
    static func run(_ input: inout FuzzInput) {
        switch input.choice(7) {
        case 0: requestHeaders(&input)
        case 1: contentDisposition(input.rest())
        case 2: caching(&input)
        case 3: retryAfter(String(decoding: input.rest(), as: UTF8.self))
        case 4: mediaTypes(&input)
        case 5: _ = try? TLSCertificate(data: Data(input.rest()))
        default:
            #if os(Linux) && canImport(CCurlShim)
            curlHead(input.rest())
            #endif
        }
    }

    /// RFC 9110 token characters, written out again so the check does not reuse the code it checks.
    private static let token = Set("!#$%&'*+-.^_`|~".utf8).union(48...57).union(65...90).union(97...122)

    /// Properties: a request builds exactly when every field name is a token and no value holds
    /// CR, LF or NUL; the built request then holds no CR, LF or NUL in any header; setting a field
    /// then reading it returns it.
    private static func requestHeaders(_ input: inout FuzzInput) {
        var headers = HTTPHeaders.empty
        for _ in 0..<(1 + input.choice(4)) {
            let name = input.string()
            let value = input.string()
            headers[name] = value
            expect(headers[name] == value, "headers[\(name.debugDescription)] lost its value")
            if name.utf8.allSatisfy({ $0 < 0x80 }) {
                expect(headers[name.uppercased()] == value, "\(name.uppercased().debugDescription) is not found")
            }
        }
        let valid = headers.allSatisfy { field in
            !field.name.isEmpty && field.name.utf8.allSatisfy(token.contains)
                && !field.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
        }
        do {
            let built = try FuzzRequest.client.urlRequest(for: FuzzRequest(headers: headers))
            expect(valid, "a request with invalid headers was built: \(headers)")
            for (name, value) in built.allHTTPHeaderFields ?? [:] {
                expect(
                    !(name + value).utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 },
                    "the built request has CR, LF or NUL in \(name.debugDescription)")
            }
            _ = built.curlCommand()
        } catch {
            expect(!valid, "valid headers were rejected: \(error) \(headers)")
            switch error {
            // A name that is not a token; CR, LF or NUL in a value.
            case .invalidHeader: break
            case .controlCharacter(let component) where component.hasPrefix("header "): break
            default: return expect(false, "unexpected error \(error)")
            }
        }
    }

    /// Properties: a sanitized name is one non-empty component, without separators, control
    /// characters or a leading dot, at most 255 bytes, and stays in its folder.
    private static func contentDisposition(_ bytes: [UInt8]) {
        let value = String(decoding: bytes, as: UTF8.self)
        for name in [
            DownloadDestination.sanitizedFileName(fromContentDisposition: value),
            DownloadDestination.sanitizedFileName(value),
        ] {
            guard let name else { continue }
            expect(!name.isEmpty && name.utf8.count <= 255, "bad length: \(name.debugDescription)")
            expect(!name.hasPrefix("."), "leading dot: \(name.debugDescription)")
            expect(name != "." && name != "..", "dot name: \(name.debugDescription)")
            expect(
                !name.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F },
                "separator or control character: \(name.debugDescription)")
            let folder = URL(fileURLWithPath: "/tmp/downloads", isDirectory: true)
            let file = folder.appendingPathComponent(name).standardizedFileURL
            expect(
                file.deletingLastPathComponent().path == folder.path,
                "\(name.debugDescription) leaves its folder: \(file.path)")
        }
    }

    /// Properties: a stored response's freshness is finite (or absent), never NaN or infinite.
    private static func caching(_ input: inout FuzzInput) {
        var fields: [String: String] = [:]
        for name in ["Cache-Control", "Age", "Expires", "Date", "Vary", "ETag", "Last-Modified"]
        where input.byte() & 1 == 1 {
            fields[name] = input.string()
        }
        // swift-format-ignore: NeverForceUnwrap
        let url = URL(string: "https://fuzz.example/cached")!
        guard let http = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: fields)
        else { return }
        var request = URLRequest(url: url)
        request.setValue(input.string(), forHTTPHeaderField: "Cache-Control")
        let now = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let policy = CachePolicy(lifetime: input.byte() == 7 ? 60 : nil)
        for shared in [false, true] {
            guard
                let entry = CachedResponse.make(
                    from: TransportResponse(response: http, data: Data("x".utf8)), request: request, key: "k",
                    policy: policy, isSharedCache: shared, now: now)
            else { continue }
            if let until = entry.freshUntil {
                expect(
                    until.timeIntervalSinceReferenceDate.isFinite,
                    "freshness is not finite (\(until.timeIntervalSinceReferenceDate)) for \(fields)")
            }
            _ = entry.isFresh(at: now)
            _ = entry.refreshed(by: http, policy: policy, isSharedCache: shared, now: now)
            _ = try? JSONEncoder().encode(entry)
        }
    }

    /// Properties: a `Retry-After` wait is finite and not negative.
    private static func retryAfter(_ value: String) {
        let now = Date(timeIntervalSinceReferenceDate: 800_000_000)
        guard let wait = RetryPolicy.parseRetryAfter(value, now: now) else { return }
        expect(wait.isFinite && wait >= 0, "Retry-After \(value.debugDescription) gave \(wait)")
    }

    /// Properties: a media type accepted by `*/*` accepts itself; a MIME type comes from the table.
    private static func mediaTypes(_ input: inout FuzzInput) {
        let type = input.string()
        let other = input.string()
        let any = ResponseValidation(acceptableContentTypes: ["*/*"])
        if any.accepts(contentType: type) {
            expect(
                ResponseValidation(acceptableContentTypes: [type]).accepts(contentType: type),
                "\(type.debugDescription) does not accept itself")
        }
        _ = ResponseValidation(acceptableContentTypes: [type]).accepts(contentType: other)
        _ = ResponseValidation.json.accepts(contentType: other)
        let mime = MIMEType.forFileName(other)
        expect(
            mime == MIMEType.fallback || MIMEType.byExtension.values.contains(mime), "unknown MIME type \(mime)")
    }

    #if os(Linux) && canImport(CCurlShim)
    /// libcurl's header lines (internal: `CurlResponseHead` is what parses the raw response head
    /// when CurlTransport is used; no public API reaches it without a server).
    /// Properties: the status is 0 or three digits; names are non-empty and hold no colon.
    private static func curlHead(_ bytes: [UInt8]) {
        var head = CurlResponseHead()
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in bytes {
            current.append(byte)
            if byte == 0x0A {
                lines.append(current)
                current = []
            }
        }
        if !current.isEmpty { lines.append(current) }
        for line in lines {
            // An exact-size allocation, so the address sanitizer sees a read past the line's end.
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: line.count, alignment: 1)
            defer { buffer.deallocate() }
            buffer.copyBytes(from: line)
            let ended = head.consume(UnsafeRawBufferPointer(buffer))
            expect(head.statusCode >= 0 && head.statusCode <= 999, "status \(head.statusCode)")
            if ended { break }
        }
        for field in head.fields {
            expect(!field.name.isEmpty && !field.name.contains(":"), "field name \(field.name.debugDescription)")
        }
        _ = head.dictionary
        _ = head.value(for: "Content-Type")
    }
    #endif
}
