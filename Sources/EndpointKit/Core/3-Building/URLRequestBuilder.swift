import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns an ``APIRequest`` plus the client's configuration into a `URLRequest`.
///
/// Order of the query string: the base URL's own query, the client's common parameters (unless
/// the body took them, see ``CommonParameterPlacement``), the request's query, then
/// method-dependent parameters placed in the query. Headers: client
/// defaults, then the request's (which win), then `Content-Type` from the body unless already set.
///
/// A class: the client keeps one, and each attempt uses it without copying the configuration in it.
package final class URLRequestBuilder: Sendable {
    let configuration: APIClient.Configuration
    /// The client's base URL, split once; without one, the stand-in of a transport that answers
    /// without a server (the testing kit's stubs).
    private let clientBase: BaseURL?

    init(configuration: APIClient.Configuration) {
        self.configuration = configuration
        let standIn = (configuration.transport as? any EndpointAwareTransport)?.standInBaseURL
        clientBase = (configuration.baseURL ?? standIn).map(BaseURL.init)
    }

    /// A built request: the `URLRequest`, plus a file to stream as its body and temporary files to
    /// remove when the request completes.
    package struct Built: Sendable {
        package var urlRequest: URLRequest
        package var bodyFile: URL?
        package var temporaryFiles: [URL] = []

        package init(urlRequest: URLRequest, bodyFile: URL? = nil, temporaryFiles: [URL] = []) {
            self.urlRequest = urlRequest
            self.bodyFile = bodyFile
            self.temporaryFiles = temporaryFiles
        }
    }

    /// Builds the `URLRequest` only, with any multipart body in memory (for inspection).
    func makeURLRequest<Request: APIRequest>(for request: Request) throws(RequestBuildError) -> URLRequest {
        try makeRequest(for: ResolvedRequest(request, configuration: configuration), inspecting: true).urlRequest
    }

    /// Builds a request to send, outside a send (a feature storing it for later).
    package func makeRequest<Request: APIRequest>(for request: Request) throws(RequestBuildError) -> Built {
        try makeRequest(for: ResolvedRequest(request, configuration: configuration))
    }

    /// Builds a request to send; large multipart bodies go to a temporary file.
    func makeRequest(for request: ResolvedRequest, inspecting: Bool = false) throws(RequestBuildError) -> Built {
        // Built once already, kept by a feature and sent again as it was.
        if let prebuilt = request.prebuilt { return prebuilt }
        let method = request.method
        guard HeaderFieldRules.isToken(method.rawValue) else {
            throw .definitionFailed("invalid method \(method.rawValue.debugDescription)")
        }
        guard let base = request.baseURL.map(BaseURL.init) ?? clientBase else { throw .missingBaseURL }

        let parameters = request.parameters
        var query = QueryItems.empty
        var body = parameters.body
        if !parameters.methodDependent.items.isEmpty {
            if [.get, .head, .delete].contains(method) || body != nil {
                query = parameters.methodDependent
            } else {
                body = .form(parameters.methodDependent)
            }
        }

        // The body first: whether it took the common parameters decides whether the query has them.
        let common = configuration.commonParameters
        var encodedBody: (content: EncodedBody, contentType: String, holdsCommon: Bool)?
        if let body {
            guard method.allowsBody else { throw .bodyNotAllowed(method) }
            let placement = common.isEmpty ? .query : configuration.commonParameterPlacement
            encodedBody = try encode(
                body, common: placement == .query ? nil : common, encoder: request.encoder,
                inspecting: inspecting)
        }
        let commonInBody = encodedBody?.holdsCommon ?? false
        var fullQuery = commonInBody && configuration.commonParameterPlacement == .body ? QueryItems.empty : common
        if let encoded = parameters.encodedQuery {
            do {
                fullQuery.append(
                    contentsOf: try FormValueEncoder.items(of: encoded, arrays: configuration.arrayEncoding))
            } catch {
                throw .definitionFailed("the query parameters from \(encoded.typeName) could not be encoded: \(error)")
            }
        }
        if !parameters.query.items.isEmpty { fullQuery.append(contentsOf: parameters.query) }
        if !query.items.isEmpty { fullQuery.append(contentsOf: query) }

        let url = try makeURL(base: base, path: request.path, query: fullQuery)
        var urlRequest = URLRequest(url: url)
        if method != .get { urlRequest.httpMethod = method.rawValue }  // GET is the default; setting it costs a copy
        // URLSession's own timeout is an idle timeout: what users of `urlRequest(for:)` expect there.
        if let idle = request.idleLimit {
            urlRequest.timeoutInterval = idle
        }

        let defaults = configuration.defaultHeaders
        let headers =
            defaults.fields.isEmpty
            ? request.headers
            : request.headers.fields.isEmpty ? defaults : defaults.merging(request.headers)
        for field in headers.fields {
            try HeaderFieldRules.check(name: field.name, value: field.value)
            urlRequest.setValue(field.value, forHTTPHeaderField: field.name)
        }

        var built = Built(urlRequest: urlRequest)
        if let (content, contentType, _) = encodedBody {
            switch content {
            case .data(let data): built.urlRequest.httpBody = data
            case .file(let url, let isTemporary):
                built.bodyFile = url
                if isTemporary { built.temporaryFiles.append(url) }
                // Shown when inspecting; when sending, the transport sets the length from the file
                // (URLSession on Linux would otherwise send it twice).
                if inspecting, let size = LocalFile.size(url) {
                    built.urlRequest.setValue(String(size), forHTTPHeaderField: "Content-Length")
                }
            }
            if headers.fields.isEmpty || headers["Content-Type"] == nil {
                built.urlRequest.setValue(contentType, forHTTPHeaderField: "Content-Type")
            }
        }
        return built
    }

    private enum EncodedBody {
        case data(Data)
        case file(URL, isTemporary: Bool)
    }

    private func makeURL(base: BaseURL, path: RequestPath, query: QueryItems) throws(RequestBuildError) -> URL {
        var string = base.prefix
        let encodedPath = path.encoded
        guard !Self.holdsEncodedControlCharacter(encodedPath) else { throw .controlCharacter(component: "path") }
        if !encodedPath.isEmpty {
            if encodedPath.utf8.first != UInt8(ascii: "/") { string += "/" }
            string += encodedPath
        }
        var encodedQuery = query.items.isEmpty ? "" : query.percentEncoded(arrayEncoding: configuration.arrayEncoding)
        // Values are checked; the base URL is configuration, trusted like its path.
        guard !Self.holdsEncodedControlCharacter(encodedQuery) else { throw .controlCharacter(component: "query") }
        if !base.query.isEmpty {
            encodedQuery = encodedQuery.isEmpty ? base.query : base.query + "&" + encodedQuery
        }
        if !encodedQuery.isEmpty { string += "?" + encodedQuery }
        // The base has a scheme and a host; what is appended is percent-encoded and cannot change them.
        guard base.hasSchemeAndHost, let url = URL(string: string) else { throw .invalidURL(string) }
        return url
    }

    /// Whether percent-encoded text holds `%0D`, `%0A` or `%00` (any case), or those bytes raw.
    static func holdsEncodedControlCharacter(_ text: String) -> Bool {
        // 0: after an ordinary byte; 1: after "%"; 2: after "%0". Walks the UTF-8 bytes in place
        // (a native string's are contiguous: no copy, and no index checks per byte).
        var text = text
        return text.withUTF8 { bytes in
            var state = 0
            for byte in bytes {
                if HeaderFieldRules.isInjectionByte(byte) { return true }
                if state == 2 {
                    switch byte | 0x20 {  // lowercased
                    case UInt8(ascii: "d"), UInt8(ascii: "a"), UInt8(ascii: "0"): return true
                    default: break
                    }
                }
                state = state == 1 && byte == UInt8(ascii: "0") ? 2 : byte == UInt8(ascii: "%") ? 1 : 0
            }
            return false
        }
    }

    /// Encodes a body, with `common` parameters merged in where it can hold them (see
    /// ``CommonParameterPlacement``); `holdsCommon` says whether it took them.
    private func encode(
        _ body: RequestBody, common: QueryItems?, encoder: JSONEncoder, inspecting: Bool
    ) throws(RequestBuildError)
        -> (EncodedBody, contentType: String, holdsCommon: Bool)
    {
        if let common, let merged = CommonParameterPlacement.merge(common, into: body) {
            let (content, contentType, _) = try encode(
                merged, common: nil, encoder: encoder, inspecting: inspecting)
            return (content, contentType, true)
        }
        switch body.storage {
        case .data(let data, let contentType):
            if let common, CommonParameterPlacement.isJSON(contentType),
                let merged = CommonParameterPlacement.merge(common, intoJSON: data)
            {
                return (.data(merged), contentType, true)
            }
            return (.data(data), contentType, false)
        case .form(let items):
            let text = items.percentEncoded(arrayEncoding: configuration.arrayEncoding)
            return (.data(Data(text.utf8)), "application/x-www-form-urlencoded; charset=utf-8", false)
        case .encodableForm(let encoded):
            // Written into items first, so common parameters merge into them as into any form.
            let items: QueryItems
            do {
                items = try FormValueEncoder.items(of: encoded, arrays: configuration.arrayEncoding)
            } catch {
                throw .bodyEncodingFailed("the form from \(encoded.typeName) could not be encoded: \(error)")
            }
            return try encode(.form(items), common: common, encoder: encoder, inspecting: inspecting)
        case .encodable(let encode, let bodyEncoder):
            let data: Data
            do {
                data = try encode(bodyEncoder ?? encoder)
            } catch {
                throw .bodyEncodingFailed(String(describing: error))
            }
            if let common, let merged = CommonParameterPlacement.merge(common, intoJSON: data) {
                return (.data(merged), "application/json", true)
            }
            return (.data(data), "application/json", false)
        case .multipart(let form):
            let encoder = MultipartEncoder(form: form, temporaryDirectory: FileManager.default.temporaryDirectory)
            let (output, contentType) = try encoder.encode(forceInMemory: inspecting)
            switch output {
            case .data(let data): return (.data(data), contentType, false)
            case .file(let url): return (.file(url, isTemporary: true), contentType, false)
            }
        case .file(let url, let contentType):
            _ = try LocalFile.uploadableSize(url)
            return (.file(url, isTemporary: false), contentType, false)
        case .invalid(let reason):
            throw .bodyEncodingFailed(reason)
        }
    }
}

/// A request built earlier by ``URLRequestBuilder/makeRequest(for:inspecting:)`` and kept (by a
/// feature that stores requests), sent as it was built: only the interceptors and later stages
/// change it.
package protocol PrebuiltRequest: APIRequest, AnyObject {
    /// The request as it was built.
    var built: URLRequestBuilder.Built { get }
}

/// A base URL split once: what paths are appended to, and its own query (`https://api.test/v1?key=1`
/// puts `key=1` first in every request's query). A fragment is never sent.
struct BaseURL: Sendable {
    /// The URL without query, fragment or trailing slashes.
    let prefix: String
    /// The URL's own query, percent-encoded as written; empty for none.
    let query: String
    /// Whether the URL can be built on: a scheme, and a host for http and https. A URL of another
    /// scheme (`file:///tmp`, `ftp://host`) is built, so that the transport refuses it as
    /// `unsupportedURL` before anything is sent, whether it has a host or not.
    let hasSchemeAndHost: Bool

    init(_ url: URL) {
        var string = url.absoluteString
        if let fragment = string.utf8.firstIndex(of: UInt8(ascii: "#")) { string = String(string[..<fragment]) }
        var query = ""
        if let mark = string.utf8.firstIndex(of: UInt8(ascii: "?")) {
            query = String(string[string.utf8.index(after: mark)...])
            string = String(string[..<mark])
        }
        while string.utf8.last == UInt8(ascii: "/") { string.removeLast() }
        prefix = string
        self.query = query
        let scheme = url.scheme?.lowercased()
        hasSchemeAndHost = scheme != nil && (url.host != nil || (scheme != "http" && scheme != "https"))
    }
}
