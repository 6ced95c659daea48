import Foundation

// This module's default isolation is the main actor (an Xcode 26 app target). The library
// decodes and encodes models off the main actor, so each model says `nonisolated`: without it,
// its `Decodable` conformance is main-actor isolated and cannot be used there.

/// The signed-in member of the team.
nonisolated struct Member: Decodable, Equatable {
    let id: Int
    let name: String
    /// The ticket pinned at the top of the member's board.
    let pinnedTicketID: Int
}

/// One ticket of the board.
nonisolated struct Ticket: Decodable, Equatable {
    let id: Int
    let title: String
}

/// One page of tickets: `{"items":[...],"next":"c2"}`, `next` missing on the last page.
nonisolated struct TicketPage: Decodable {
    let items: [Ticket]
    let next: String?
}

/// A ticket to open, sent as JSON.
nonisolated struct NewTicket: Encodable {
    let title: String
}

/// One line of the activity feed (newline-delimited JSON).
nonisolated struct Activity: Decodable {
    let actor: String
    let action: String
}
