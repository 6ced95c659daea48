import EndpointKit
import EndpointKitTesting
import Foundation
import XCTest

@testable import ModernApp

// A sample response declared in the test target, next to the tests that use it: it reads the
// subclass's stored property, from a nonisolated context. `public`, because the type comes from a
// `@testable import` (the compiler asks for it, as for any public protocol's requirement there).
extension TicketRequest: SampleResponseProviding {
    /// The ticket the request asks for, titled "Sample <id>".
    public var sampleResponse: StubResponse {
        .json(#"{"id":\#(ticketID),"title":"Sample \#(ticketID)"}"#)
    }
}

/// What issue 25 found: a `BaseRequest` subclass's stored property could not be read outside
/// the main actor ("main actor-isolated property 'userId' can not be referenced from a
/// nonisolated context"), in a default-MainActor module even less. This test is nonisolated: a
/// sample response, a stub matcher and a key path read `ticketID`.
final class TicketRequestTests: XCTestCase {
    func testThatTheTicketIDIsReadOffTheMainActor() async {
        let stubs = StubTransport(answersFromSamples: true)
        stubs.stub(.request(TicketRequest.self, where: { $0.ticketID == 13 }), with: .status(404))
        let recorder = TrafficRecorder()
        var configuration = APIClient.Configuration(baseURL: URL(string: "https://board.example"), transport: stubs)
        configuration.plugins = [recorder]
        let client = APIClient(configuration: configuration)

        let twelve = await client.send(TicketRequest(ticketID: 12))
        let thirteen = await client.send(TicketRequest(ticketID: 13))

        XCTAssertEqual(twelve.value, Ticket(id: 12, title: "Sample 12"))
        XCTAssertEqual(thirteen.failure?.statusCode, 404)
        XCTAssertEqual(stubs.endpoints(of: TicketRequest.self).map(\.ticketID), [12, 13])
        XCTAssertEqual(recorder.lines, ["TicketRequest 200", "TicketRequest 404"])
    }
}
