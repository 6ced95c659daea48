import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns an ``APIRequest`` plus the client's configuration into a `URLRequest`.
///
/// Order of the query string: client's common parameters, then the request's query, then
/// method-dependent parameters placed in the query. Headers: client defaults, then the
/// request's (which win), then `Content-Type` from the body unless already set.
struct URLRequestBuilder: Sendable {
    let configuration: APIClient.Configuration

    func makeURLRequest<Request: APIRequest>(for request: Request) throws(RequestBuildError) -> URLRequest {
        let method = request.method
        guard Self.isToken(method.rawValue) else {
            throw .definitionFailed("invalid method \(method.rawValue.debugDescription)")
        }
        guard let base = request.baseURL ?? configuration.baseURL else { throw .missingBaseURL }

        let parameters = request.parameters
        var query = configuration.commonParameters
        query.append(contentsOf: parameters.query)
        var body = parameters.body
        if !parameters.methodDependent.isEmpty {
            if [.get, .head, .delete].contains(method) || body != nil {
                query.append(contentsOf: parameters.methodDependent)
            } else {
                body = .form(parameters.methodDependent)
            }
        }

        let url = try makeURL(base: base, path: request.path, query: query)
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = method.rawValue
        let timeout = request.timeout ?? configuration.timeout
        if timeout > 0 { urlRequest.timeoutInterval = timeout }

        let headers = configuration.defaultHeaders.merging(request.headers)
        for field in headers {
            try Self.validate(field)
            urlRequest.setValue(field.value, forHTTPHeaderField: field.name)
        }

        if let body {
            guard method.allowsBody else { throw .bodyNotAllowed(method) }
            let (data, contentType) = try encode(body, requestEncoder: request.encoder)
            urlRequest.httpBody = data
            if headers["Content-Type"] == nil { urlRequest.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        }
        return urlRequest
    }

    private func makeURL(base: URL, path: RequestPath, query: QueryItems) throws(RequestBuildError) -> URL {
        var string = base.absoluteString
        if let cut = string.firstIndex(where: { $0 == "?" || $0 == "#" }) { string = String(string[..<cut]) }
        while string.hasSuffix("/") { string.removeLast() }
        let encodedPath = path.encoded
        if !encodedPath.isEmpty {
            if !encodedPath.hasPrefix("/") { string += "/" }
            string += encodedPath
        }
        let encodedQuery = query.percentEncoded(arrayEncoding: configuration.arrayEncoding)
        if !encodedQuery.isEmpty { string += "?" + encodedQuery }
        guard let url = URL(string: string), url.scheme != nil, url.host != nil else { throw .invalidURL(string) }
        return url
    }

    private func encode(_ body: RequestBody, requestEncoder: JSONEncoder?) throws(RequestBuildError) -> (Data, String) {
        switch body.storage {
        case .data(let data, let contentType):
            return (data, contentType)
        case .form(let items):
            let text = items.percentEncoded(arrayEncoding: configuration.arrayEncoding)
            return (Data(text.utf8), "application/x-www-form-urlencoded; charset=utf-8")
        case .encodable(let encode, let bodyEncoder):
            do {
                return (try encode(bodyEncoder ?? requestEncoder ?? configuration.encoder), "application/json")
            } catch {
                throw .bodyEncodingFailed(String(describing: error))
            }
        case .invalid(let reason):
            throw .bodyEncodingFailed(reason)
        }
    }

    /// RFC 9110 token characters, for header names and methods.
    private static let tokenCharacters = Set(
        "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    static func isToken(_ string: String) -> Bool {
        !string.isEmpty && string.utf8.allSatisfy { tokenCharacters.contains($0) }
    }

    static func validate(_ field: HTTPHeaders.Field) throws(RequestBuildError) {
        guard isToken(field.name) else {
            throw .invalidHeader(name: field.name, reason: "the name is not an HTTP token")
        }
        if field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
            throw .invalidHeader(name: field.name, reason: "the value contains CR, LF or NUL")
        }
    }
}
