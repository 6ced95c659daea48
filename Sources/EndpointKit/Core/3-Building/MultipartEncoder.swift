import Foundation

/// Encodes a ``MultipartFormData`` into memory or, above its threshold, into a temporary file,
/// choosing a new boundary whenever the current one occurs in a part.
struct MultipartEncoder {
    enum Output {
        case data(Data)
        case file(URL)
    }

    let form: MultipartFormData
    let temporaryDirectory: URL

    /// Encodes the body; `forceInMemory` is used when the request is only inspected.
    func encode(forceInMemory: Bool = false) throws(RequestBuildError) -> (output: Output, contentType: String) {
        var form = form
        let sizes = try fileSizes()
        for _ in 0..<8 {
            let total = size(of: form, fileSizes: sizes)
            if forceInMemory || total <= Int64(form.inMemoryThreshold) {
                if let data = try encodeInMemory(form) { return (.data(data), form.contentType) }
            } else if let url = try encodeToFile(form) {
                return (.file(url), form.contentType)
            }
            form.boundary = MultipartFormData.randomBoundary()
        }
        throw .bodyEncodingFailed("no multipart boundary could be found that does not occur in the content")
    }

    private func fileSizes() throws(RequestBuildError) -> [URL: Int64] {
        var sizes: [URL: Int64] = [:]
        for part in form.parts {
            guard case .file(let url) = part.content else { continue }
            sizes[url] = try LocalFile.uploadableSize(url)
        }
        return sizes
    }

    private func size(of form: MultipartFormData, fileSizes: [URL: Int64]) -> Int64 {
        var total = Int64(form.tail.count)
        for (index, part) in form.parts.enumerated() {
            total += Int64(form.head(of: part, first: index == 0).count)
            switch part.content {
            case .data(let data): total += Int64(data.count)
            case .file(let url): total += fileSizes[url] ?? 0
            }
        }
        return total
    }

    /// The body in memory, or `nil` if the boundary occurs in a part.
    private func encodeInMemory(_ form: MultipartFormData) throws(RequestBuildError) -> Data? {
        let marker = Data(form.boundary.utf8)
        var body = Data()
        for (index, part) in form.parts.enumerated() {
            let content: Data
            switch part.content {
            case .data(let data): content = data
            case .file(let url):
                do {
                    content = try Data(contentsOf: url)
                } catch {
                    throw .unreadableFile(url, reason: "\(error)")
                }
            }
            if content.range(of: marker) != nil { return nil }
            body.append(form.head(of: part, first: index == 0))
            body.append(content)
        }
        body.append(form.tail)
        return body
    }

    /// The body in a temporary file, or `nil` (file removed) if the boundary occurs in a part.
    private func encodeToFile(_ form: MultipartFormData) throws(RequestBuildError) -> URL? {
        let url = temporaryDirectory.appendingPathComponent("EndpointKit-multipart-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
            let output = try? FileHandle(forWritingTo: url)
        else { throw .bodyEncodingFailed("cannot create a temporary file in \(temporaryDirectory.path)") }
        var keep = false
        defer {
            try? output.close()
            if !keep { try? FileManager.default.removeItem(at: url) }
        }
        let marker = Data(form.boundary.utf8)
        do {
            for (index, part) in form.parts.enumerated() {
                try output.write(contentsOf: form.head(of: part, first: index == 0))
                switch part.content {
                case .data(let data):
                    if data.range(of: marker) != nil { return nil }
                    try output.write(contentsOf: data)
                case .file(let source):
                    guard try copy(source, to: output, rejecting: marker) else { return nil }
                }
            }
            try output.write(contentsOf: form.tail)
        } catch let error as RequestBuildError {
            throw error
        } catch {
            throw .bodyEncodingFailed("writing the temporary multipart file failed: \(error)")
        }
        keep = true
        return url
    }

    /// Copies a file in chunks; `false` if `marker` occurs in it (also across chunk edges).
    private func copy(_ source: URL, to output: FileHandle, rejecting marker: Data) throws -> Bool {
        let input: FileHandle
        do {
            input = try FileHandle(forReadingFrom: source)
        } catch {
            throw RequestBuildError.unreadableFile(source, reason: "\(error)")
        }
        defer { try? input.close() }
        var carry = Data()
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            let window = carry + chunk
            if window.range(of: marker) != nil { return false }
            carry = window.suffix(marker.count - 1)
            try output.write(contentsOf: chunk)
        }
        return true
    }
}
