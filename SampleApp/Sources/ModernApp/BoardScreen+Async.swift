import EndpointKit
import EndpointKitStreaming

// The same board with async/await, as a SwiftUI view calls it (`.task { await board.refresh() }`):
// the methods are on the main actor and resume there after every `await`.

extension BoardScreen {
    /// The member's name as the title.
    func refreshTitle() async {
        do {
            title = try await client.value(for: GetMember()).name
            record("async member: \(title)")
        } catch {
            show(error)  // an APIFailure: `value(for:)` throws(APIFailure)
        }
    }

    /// Opens a ticket and shows it.
    func createTicket(titled ticketTitle: String) async {
        isLoading = true
        defer { isLoading = false }
        switch await client.send(CreateTicket(ticket: NewTicket(title: ticketTitle))) {
        case .success(let ticket, _):
            title = ticket.title
            record("created: \(ticket.title)")
        case .serverFailure(let failure): show(.server(failure))
        case .transportError(let error): show(.transport(error))
        }
    }

    /// The team's activity into the event log until it ends or the calling task is cancelled.
    func streamActivity() async {
        do {
            for try await entry in client.stream(ActivityFeed()) {
                record("async activity: \(entry.actor) \(entry.action)")
            }
            record("async activity ended")
        } catch {
            show(error)
        }
    }
}
