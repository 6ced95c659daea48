import EndpointKit
import Foundation

/// An entry's result before the app has heard it: in memory, and in the results folder (as a
/// ``Record``) so that it outlives a relaunch. It becomes an ``OutboxResult`` when handed over.
struct FinishedEntry: Sendable {
    enum Outcome: Sendable {
        case succeeded(ResponseMetadata)
        case failedOnServer(ServerFailure)
        case deadLettered(APIFailure)
        case damaged(file: URL, reason: String)
    }

    let id: UUID
    let kind: String
    let outcome: Outcome
    let finishedAt: Date

    init(id: UUID, kind: String, outcome: Outcome, finishedAt: Date = Date()) {
        self.id = id
        self.kind = kind
        self.outcome = outcome
        self.finishedAt = finishedAt
    }

    /// A result's file header; its payload is the response body of a success.
    struct Record: Codable, Sendable {
        enum Kind: String, Codable, Sendable {
            case succeeded, failedOnServer, deadLettered, damaged
        }

        var id: UUID
        var kind: String
        var finishedAt: Date
        var outcome: Kind
        var response: StoredResponse?
        var failure: StoredFailure?
        var damagedFile: String?
        var damage: String?
    }

    /// The header and payload of this result's file.
    var record: (Record, payload: Data) {
        var record = Record(id: id, kind: kind, finishedAt: finishedAt, outcome: .succeeded)
        switch outcome {
        case .succeeded(let metadata):
            record.response = StoredResponse(metadata)
            return (record, metadata.data)
        case .failedOnServer(let failure):
            record.outcome = .failedOnServer
            record.failure = StoredFailure(.server(failure))
        case .deadLettered(let failure):
            record.outcome = .deadLettered
            record.failure = StoredFailure(failure)
        case .damaged(let file, let reason):
            record.outcome = .damaged
            record.damagedFile = file.path
            record.damage = reason
        }
        return (record, Data())
    }

    /// The result a file holds; `nil` when its values do not make one.
    init?(_ record: Record, payload: Data) {
        let outcome: Outcome
        switch record.outcome {
        case .succeeded:
            guard let metadata = record.response?.metadata(body: payload) else { return nil }
            outcome = .succeeded(metadata)
        case .failedOnServer:
            guard case .server(let failure) = record.failure?.failure else { return nil }
            outcome = .failedOnServer(failure)
        case .deadLettered:
            guard let failure = record.failure?.failure else { return nil }
            outcome = .deadLettered(failure)
        case .damaged:
            guard let file = record.damagedFile else { return nil }
            outcome = .damaged(file: URL(fileURLWithPath: file), reason: record.damage ?? "")
        }
        self.init(id: record.id, kind: record.kind, outcome: outcome, finishedAt: record.finishedAt)
    }
}
