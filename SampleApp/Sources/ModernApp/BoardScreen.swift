import EndpointKit
import EndpointKitComposition
import EndpointKitStreaming
import Foundation

/// The team board: the member's name as its title, the open and the closed tickets, an
/// attachment being downloaded and the team's live activity.
///
/// On the main actor like everything in this module (its default isolation), so it writes its
/// state from every callback as it comes: the library calls them all on the main actor. `events`
/// keeps one line per callback, in order.
final class BoardScreen {
    /// The navigation title: the member's name, or the ticket opened.
    var title = ""
    /// The open tickets' titles (paged with closures).
    var rows: [String] = []
    /// The closed tickets' titles (paged through the paginator's delegate).
    var closedRows: [String] = []
    /// How far the attachment download is, from 0 to 1.
    var progress = 0.0
    /// Whether the spinner shows.
    var isLoading = false
    /// What the screen was told, one line per callback.
    var events: [String] = []
    /// The last failure shown.
    var errorMessage: String?

    let client: APIClient
    /// The open tickets, paged with closures.
    let openTickets: Paginator<ListTickets>
    /// The closed tickets, paged by telling this screen.
    let closedTickets: Paginator<ListTickets>
    /// The ticket watched with this screen as its delegate.
    private(set) var watchedTicket: TicketRequest?
    /// The batch of starred tickets, to tell it apart in the batch delegate.
    var starredBatch: RequestHandle?
    private var activity: RequestHandle?

    init(client: APIClient) {
        self.client = client
        openTickets = Paginator(client: client, request: ListTickets())
        closedTickets = Paginator(client: client, request: ListTickets(state: "closed"))
        closedTickets.delegate = self
    }

    func record(_ event: String) {
        events.append(event)
    }

    /// Shows a failure, unless it is a cancellation.
    func show(_ failure: APIFailure?) {
        guard let failure else { return }
        switch failure {
        case .server(let failure):
            errorMessage = failure.message ?? "The server said \(failure.statusCode)."
        case .transport(let error):
            guard error.reason != .cancelled else { return }
            errorMessage = error.message
        }
        record("failed: \(errorMessage ?? "")")
    }

    // MARK: - One request

    /// The member's name as the title.
    func loadMember() {
        isLoading = true
        client.send(GetMember()) { result in
            self.isLoading = false
            guard case .success(let member, _) = result else { return self.show(result.failure) }
            self.title = member.name
            self.record("member: \(member.name)")
        }
    }

    /// Downloads a ticket's attachment, with a progress bar.
    func downloadAttachment(of ticketID: Int) {
        progress = 0
        client.send(
            DownloadAttachment(ticketID: ticketID),
            progress: { self.progress = $0.fractionCompleted ?? 0 }
        ) { result in
            guard let data = result.value else { return self.show(result.failure) }
            self.record("attachment: \(data.count) bytes")
        }
    }

    /// The cached member at once, then the server's.
    func showMemberThenRefresh() {
        client.send(
            GetMember(),
            cached: { result in
                guard let member = result.value else { return }
                self.title = member.name
                self.record("cached member: \(member.name)")
            },
            completion: { result in
                guard let member = result.value else { return self.show(result.failure) }
                self.title = member.name
                self.record("fresh member: \(member.name)")
            })
    }

    /// Opens a ticket through a request object, with a completion.
    func openTicket(_ id: Int) {
        TicketRequest(ticketID: id).start(with: client) { result in
            guard let ticket = result.value else { return self.show(result.failure) }
            self.title = ticket.title
            self.record("opened: \(ticket.title)")
        }
    }

    /// Watches a ticket: a request object kept by the screen, which is its delegate.
    func watchTicket(_ id: Int) {
        let request = watchedTicket ?? TicketRequest(ticketID: id)
        watchedTicket = request
        request.delegate = self
        request.start(with: client)
    }

    /// The member again, told to this screen as the delegate.
    func reloadMember() {
        client.send(GetMember(), delegate: self)
    }

    // MARK: - Several requests

    /// The member and their pinned ticket: the member first, then the ticket it names.
    func openPinnedTicket() {
        let chain = RequestChain(GetMember()).then { GetTicket(id: $0.pinnedTicketID) }
        client.send(chain) { result in
            guard let ticket = result.value else { return self.show(result.failure) }
            self.title = ticket.title
            self.record("pinned: \(ticket.title)")
        }
    }

    /// The member and the first ticket together, in one closure.
    func loadHeader() {
        isLoading = true
        client.send(RequestBatch(GetMember(), GetTicket(id: 1), policy: .failFast)) { batch in
            self.isLoading = false
            let (member, ticket) = batch.results
            guard let member = member.value, let ticket = ticket.value else {
                return self.show(batch.failure?.failure)
            }
            self.title = member.name
            self.rows = [ticket.title]
            self.record("header: \(member.name), \(ticket.title)")
        }
    }

    /// The starred tickets, told to this screen as the batch's delegate.
    func loadStarred(_ ids: [Int]) {
        starredBatch = client.send(RequestBatch(ids.map { GetTicket(id: $0) }), delegate: self)
    }

    // MARK: - Lists and streams

    /// The first page of open tickets.
    func loadOpenTickets() {
        openTickets.loadFirstPage { result in
            guard result.isSuccess else { return self.show(result.failure) }
            self.rows = self.openTickets.snapshot.items.map(\.title)
            self.record("open: \(self.rows.count) rows")
        }
    }

    /// The next page of open tickets.
    func loadMoreOpenTickets() {
        openTickets.loadNextPage { result in
            guard let result else { return self.record("open: end") }
            guard result.isSuccess else { return self.show(result.failure) }
            self.rows = self.openTickets.snapshot.items.map(\.title)
            self.record("open: \(self.rows.count) rows")
        }
    }

    /// The closed tickets' first page; the delegate hears it.
    func loadClosedTickets() {
        closedTickets.loadFirstPage()
    }

    /// The closed tickets' next page; the delegate hears it, also at the end.
    func loadMoreClosedTickets() {
        closedTickets.loadNextPage()
    }

    /// The team's activity into the event log, with closures.
    func followActivity() {
        activity?.cancel()
        activity = client.stream(
            ActivityFeed(),
            onElement: { [weak self] entry in self?.record("activity: \(entry.actor) \(entry.action)") },
            completion: { [weak self] result in
                guard case .success(let summary, _) = result else { return self?.show(result.failure) ?? () }
                self?.record("activity ended after \(summary.bytesReceived) bytes")
            })
    }

    /// The team's activity told to this screen as the stream's delegate.
    func listenToActivity() {
        activity?.cancel()
        activity = client.stream(ActivityFeed(), delegate: self)
    }

    /// Stops the activity feed.
    func stopActivity() {
        activity?.cancel()
        activity = nil
    }
}
