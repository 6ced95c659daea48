import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The body of a request as a test double keeps it: `httpBody`, or the upload file's bytes when
/// the file is small enough to hold (a large upload is kept as its size only).
///
/// Read when the request arrives, because an upload file (such as a streamed multipart body) is
/// deleted once the request completes.
struct CapturedBody: Sendable {
    /// Upload files up to this size are read into memory: 16 MiB.
    static let fileLimit: Int64 = 16 * 1024 * 1024

    /// The bytes, or `nil` for an upload file larger than ``fileLimit`` (or unreadable).
    let data: Data?
    /// The body's size in bytes.
    let size: Int64

    init(_ request: TransportRequest) {
        guard let file = request.bodyFile else {
            data = request.urlRequest.httpBody ?? Data()
            size = Int64(data?.count ?? 0)
            return
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        size = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        data = size <= Self.fileLimit ? try? Data(contentsOf: file) : nil
    }

    /// The bytes with a multipart boundary replaced by `BOUNDARY`, so that a body that differs
    /// only by its random boundary compares (and hashes) the same.
    func normalized(contentType: String?) -> Data? {
        guard var data, let boundary = Self.boundary(in: contentType), !boundary.isEmpty else { return data }
        let marker = Data(boundary.utf8)
        let replacement = Data("BOUNDARY".utf8)
        var start = data.startIndex
        while let range = data.range(of: marker, in: start..<data.endIndex) {
            data.replaceSubrange(range, with: replacement)
            start = range.lowerBound + replacement.count
        }
        return data
    }

    /// The `boundary` parameter of a `multipart/...` content type.
    static func boundary(in contentType: String?) -> String? {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/") else { return nil }
        return MediaType.parameters(of: contentType).first { $0.name == "boundary" }?.value
            .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }
}
