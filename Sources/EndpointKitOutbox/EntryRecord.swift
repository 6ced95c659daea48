import EndpointKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an entry's file says about it: the request as the client built it (before interceptors),
/// its place in its lane, its idempotency key. The body follows in the file, or lies in a file of
/// its own when it was one (``bodyInFile``).
struct EntryRecord: Codable, Sendable {
    /// A header field, in order.
    struct Field: Codable, Sendable, Hashable {
        var name: String
        var value: String
    }

    var id: UUID
    /// The order of entries, across lanes and launches.
    var sequence: UInt64
    var lane: String
    var kind: String
    /// Sent as `Idempotency-Key` on every attempt.
    var idempotencyKey: String
    var enqueuedAt: Date
    var method: String
    var url: String
    var headers: [Field]
    var timeoutInterval: Double
    var connectTimeout: Double?
    var idleTimeout: Double?
    var totalTimeout: Double?
    /// Whether the body is the entry's body file instead of the record's payload.
    var bodyInFile: Bool
    /// Why the entry is a dead letter, for one in the dead-letter folder.
    var deadLetter: StoredFailure?

    /// The record of a request as `built` by the client.
    init(
        id: UUID, sequence: UInt64, lane: String, kind: String, idempotencyKey: String, urlRequest: URLRequest,
        timeouts: (connect: Double?, idle: Double?, total: Double?), bodyInFile: Bool
    ) {
        self.id = id
        self.sequence = sequence
        self.lane = lane
        self.kind = kind
        self.idempotencyKey = idempotencyKey
        enqueuedAt = Date()
        method = urlRequest.httpMethod ?? "GET"
        url = urlRequest.url?.absoluteString ?? ""
        headers = (urlRequest.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map {
            Field(name: $0.key, value: $0.value)
        }
        timeoutInterval = urlRequest.timeoutInterval
        connectTimeout = timeouts.connect
        idleTimeout = timeouts.idle
        totalTimeout = timeouts.total
        self.bodyInFile = bodyInFile
    }

    /// The file name in the entries and dead-letter folders: the sequence first, so that names
    /// sort in order.
    var fileName: String { EntryRecord.fileName(sequence: sequence, id: id) }

    static func fileName(sequence: UInt64, id: UUID) -> String {
        let digits = String(sequence, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits + "-" + id.uuidString + ".entry"
    }

    /// The identifier in an entry file's name, if the name has one.
    static func id(inFileName name: String) -> UUID? {
        guard name.hasSuffix(".entry"), let dash = name.firstIndex(of: "-") else { return nil }
        return UUID(uuidString: String(name[name.index(after: dash)...].dropLast(".entry".count)))
    }

    /// The request to send: as stored, with the body and the idempotency key.
    func urlRequest(body: Data?) -> URLRequest? {
        guard let url = URL(string: url) else { return nil }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = timeoutInterval
        for field in headers { request.setValue(field.value, forHTTPHeaderField: field.name) }
        if request.value(forHTTPHeaderField: Outbox.idempotencyKeyHeader) == nil {
            // An sf-string (RFC 8941), as the IETF draft has it: the key in double quotes.
            request.setValue("\"\(idempotencyKey)\"", forHTTPHeaderField: Outbox.idempotencyKeyHeader)
        }
        request.httpBody = body
        return request
    }
}
