import EndpointKit
import Foundation

// Endpoints are structs conforming to `APIRequest`, a `Sendable` protocol: they compile as
// written in a module whose default isolation is the main actor, with no annotation.

/// The signed-in member, kept in the cache for a minute.
struct GetMember: APIRequest {
    typealias Response = Member
    var path: RequestPath { "/me" }
    var cachePolicy: CachePolicy? {
        var policy = CachePolicy(lifetime: 60)
        policy.cachesSensitiveData = true  // signed by SessionInterceptor: keyed by the session
        return policy
    }
}

/// One ticket.
struct GetTicket: APIRequest {
    typealias Response = Ticket
    let id: Int
    var path: RequestPath { "/tickets/\(id)" }
}

/// A ticket's attachment, as raw bytes.
struct DownloadAttachment: APIRequest {
    typealias Response = Data
    let ticketID: Int
    var path: RequestPath { "/tickets/\(ticketID)/attachment" }
}

/// Opens a ticket; the server answers with the ticket it created.
struct CreateTicket: APIRequest {
    typealias Response = Ticket
    let ticket: NewTicket
    var method: HTTPMethod { .post }
    var path: RequestPath { "/tickets" }
    var parameters: RequestParameters { .json(ticket) }
}
