import EndpointKit

/// A ticket as a request object (YTKNetwork style), reused and restarted by the board.
///
/// `nonisolated` is what a `BaseRequest` subclass needs in this module: the library reads its
/// endpoint members off the main actor, and a main-actor `path` cannot override them ("main
/// actor-isolated property 'path' has different actor isolation from nonisolated overridden
/// declaration"). It also lets tests read `ticketID` from anywhere.
nonisolated final class TicketRequest: BaseRequest<Ticket> {
    let ticketID: Int

    init(ticketID: Int) {
        self.ticketID = ticketID
    }

    override var path: RequestPath { "/tickets/\(ticketID)" }
    override var tag: String? { "ticket" }
}
