import Foundation

/// Splits a `multipart/form-data` body (RFC 7578, RFC 2046 §5.1) into its parts, for contract
/// checks.
enum MultipartParser {
    struct Part: Sendable {
        let name: String
        let fileName: String?
        let contentType: String?
        let data: Data
    }

    /// The parts, or a sentence saying why the body is not multipart with this boundary.
    static func parts(of body: Data, boundary: String) -> Result<[Part], MultipartError> {
        let delimiter = Data("--\(boundary)".utf8)
        let separator = Data("\r\n--\(boundary)".utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        guard let first = body.range(of: delimiter) else {
            return .failure(MultipartError("the boundary \(boundary) does not occur in the body"))
        }
        var parts: [Part] = []
        var cursor = first.upperBound
        while true {
            if body[cursor...].starts(with: Data("--".utf8)) { return .success(parts) }
            guard body[cursor...].starts(with: Data("\r\n".utf8)),
                let headEnd = body.range(of: headerEnd, in: cursor..<body.endIndex),
                let next = body.range(of: separator, in: headEnd.upperBound..<body.endIndex)
            else { return .failure(MultipartError("part \(parts.count + 1) is not terminated by the boundary")) }
            let head = String(decoding: body[(cursor + 2)..<headEnd.lowerBound], as: UTF8.self)
            guard let part = part(head: head, data: body[headEnd.upperBound..<next.lowerBound]) else {
                return .failure(MultipartError("part \(parts.count + 1) has no Content-Disposition name"))
            }
            parts.append(part)
            cursor = next.upperBound
        }
    }

    private static func part(head: String, data: Data) -> Part? {
        var name: String?
        var fileName: String?
        var contentType: String?
        for line in head.components(separatedBy: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            switch pair[0].lowercased() {
            case "content-disposition":
                name = parameter("name", in: pair[1])
                fileName = parameter("filename", in: pair[1])
            case "content-type":
                contentType = pair[1]
            default:
                continue
            }
        }
        return name.map { Part(name: $0, fileName: fileName, contentType: contentType, data: Data(data)) }
    }

    /// The quoted value of `key="value"` in a header value.
    private static func parameter(_ key: String, in value: String) -> String? {
        for piece in value.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard piece.lowercased().hasPrefix(key + "=") else { continue }
            return String(piece.dropFirst(key.count + 1)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }
}

/// Why a body could not be read as multipart.
struct MultipartError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
