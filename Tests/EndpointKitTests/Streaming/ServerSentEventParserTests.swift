import EndpointKit
import EndpointKitStreaming
import Foundation
import XCTest

/// The event-stream parsing rules of the HTML Living Standard, one at a time, and fed in every
/// chunking (whole, byte by byte, split at each position) with the same events.
final class ServerSentEventParserTests: XCTestCase {
    /// The events of `text` parsed whole, byte by byte, and split in two at every position: all
    /// three must agree, and the agreed events are returned.
    private func events(
        _ text: String, parser: ServerSentEventParser = ServerSentEventParser(), file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> [ServerSentEvent] {
        try events(Array(text.utf8), parser: parser, file: file, line: line)
    }

    private func events(
        _ bytes: [UInt8], parser: ServerSentEventParser = ServerSentEventParser(), file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> [ServerSentEvent] {
        var whole = parser
        let expected = try whole.parse(Data(bytes))
        var byByte = parser
        var collected: [ServerSentEvent] = []
        for byte in bytes { collected += try byByte.parse(Data([byte])) }
        XCTAssertEqual(collected, expected, "fed byte by byte", file: file, line: line)
        for cut in 0...bytes.count {
            var split = parser
            let events = try split.parse(Data(bytes[..<cut])) + split.parse(Data(bytes[cut...]))
            XCTAssertEqual(events, expected, "split at \(cut)", file: file, line: line)
        }
        return expected
    }

    func testThatLFCRAndCRLFAllEndLines() throws {
        let expected = [ServerSentEvent(event: "tick", data: "1\n2")]
        for end in ["\n", "\r", "\r\n"] {
            let text = ["event: tick", "data: 1", "data: 2", "", ""].joined(separator: end)
            XCTAssertEqual(try events(text), expected, end.debugDescription)
        }
        // Mixed in one stream.
        XCTAssertEqual(try events("event: tick\rdata: 1\r\ndata: 2\n\r\n"), expected)
    }

    func testThatACRBeforeAnotherCRIsABlankLineNotACRLF() throws {
        XCTAssertEqual(try events("data: a\r\rdata: b\r\n\r\n"), [.init(data: "a"), .init(data: "b")])
        XCTAssertEqual(try events("data: a\n\r\n"), [.init(data: "a")])
        XCTAssertEqual(try events("data: a\r\n\n"), [.init(data: "a")])
    }

    func testThatCommentsAreIgnored() throws {
        XCTAssertEqual(
            try events(": hello\n:\ndata: a\n: between lines\ndata: b\n\n: keep-alive\n\n"),
            [.init(data: "a\nb")])
        XCTAssertEqual(try events(":only comments\n\n:\n\n"), [])
    }

    func testThatDataLinesAreJoinedAndTheLastLineEndDropped() throws {
        XCTAssertEqual(try events("data: one\ndata: two\ndata: three\n\n"), [.init(data: "one\ntwo\nthree")])
        XCTAssertEqual(try events("data\n\n"), [.init(data: "")])
        XCTAssertEqual(try events("data:\n\n"), [.init(data: "")])
        XCTAssertEqual(try events("data\ndata\n\n"), [.init(data: "\n")])
        XCTAssertEqual(try events("data: a\ndata\n\n"), [.init(data: "a\n")])
    }

    func testThatOneSpaceAfterTheColonIsDropped() throws {
        XCTAssertEqual(try events("data:a\n\n"), [.init(data: "a")])
        XCTAssertEqual(try events("data: a\n\n"), [.init(data: "a")])
        XCTAssertEqual(try events("data:  a \n\n"), [.init(data: " a ")])
        XCTAssertEqual(try events("data: a: b\n\n"), [.init(data: "a: b")])
        XCTAssertEqual(try events("event:  spaced\ndata\n\n"), [.init(event: " spaced", data: "")])
    }

    func testThatOneLeadingByteOrderMarkIsIgnored() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        XCTAssertEqual(try events(bom + Array("data: a\n\n".utf8)), [.init(data: "a")])
        // Only one: a second is part of the first field's name, which is then unknown.
        XCTAssertEqual(try events(bom + bom + Array("data: a\n\ndata: b\n\n".utf8)), [.init(data: "b")])
        // Not leading: kept.
        XCTAssertEqual(try events(Array("data: ".utf8) + bom + Array("a\n\n".utf8)), [.init(data: "\u{FEFF}a")])
        XCTAssertEqual(try events(Array("\n".utf8) + bom + Array("data: a\n\n".utf8)), [])
    }

    func testThatTheTypeIsMessageUnlessTheBlockSetsOne() throws {
        XCTAssertEqual(
            try events("event: add\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\nevent: a\nevent: b\ndata: 4\n\n"),
            [.init(event: "add", data: "1"), .init(data: "2"), .init(data: "3"), .init(event: "b", data: "4")])
    }

    func testThatTheLastEventIDPersistsUntilReplacedOrReset() throws {
        var parser = ServerSentEventParser()
        let events = try parser.parse(Data("id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\nid\ndata: d\n\n".utf8))
        XCTAssertEqual(events.map(\.id), ["1", "1", "2", nil])
        XCTAssertEqual(parser.lastEventID, "")
        XCTAssertEqual(try self.events("id: 7\n\ndata: x\n\n"), [.init(data: "x", id: "7")])
    }

    func testThatAnIDWithNULIsIgnored() throws {
        XCTAssertEqual(
            try events("id: 1\ndata: a\n\nid: 2\u{0}3\ndata: b\n\nid: 4\ndata: c\n\n").map(\.id), ["1", "1", "4"])
    }

    func testThatTheLastEventIDIsCommittedOnlyByADispatch() throws {
        var parser = ServerSentEventParser()
        _ = try parser.parse(Data("id: 1\ndata: a\n\nid: 2\ndata: b\n".utf8))
        XCTAssertEqual(parser.lastEventID, "1")
        // An id in a block without data is committed by its blank line, with no event.
        XCTAssertEqual(try parser.parse(Data("\nid: 3\n\n".utf8)), [.init(data: "b", id: "2")])
        XCTAssertEqual(parser.lastEventID, "3")
    }

    func testThatRetryCountsOnlyWhenAllDigits() throws {
        var parser = ServerSentEventParser()
        for ignored in ["retry: 10a\n", "retry: -5\n", "retry: 1.5\n", "retry: \n", "retry\n", "retry:  5\n"] {
            XCTAssertEqual(try parser.parse(Data((ignored + "data: x\n\n").utf8)).first?.retry, nil, ignored)
            XCTAssertNil(parser.reconnectionTime, ignored)
        }
        XCTAssertEqual(try parser.parse(Data("retry: 1500\ndata: x\n\n".utf8)), [.init(data: "x", retry: 1.5)])
        XCTAssertEqual(parser.reconnectionTime, 1.5)
        // Set by a block without data too; the next event does not carry it.
        XCTAssertEqual(try parser.parse(Data("retry: 20\n\ndata: y\n\n".utf8)), [.init(data: "y")])
        XCTAssertEqual(parser.reconnectionTime, 0.02)
        XCTAssertEqual(try events("retry: 0\ndata: z\n\n"), [.init(data: "z", retry: 0)])
    }

    func testThatOnlyABlankLineDispatchesAndAnUnfinishedBlockGivesNoEvent() throws {
        XCTAssertEqual(try events("data: a\ndata: b"), [])
        XCTAssertEqual(try events("data: a\n"), [])
        var parser = ServerSentEventParser()
        XCTAssertEqual(
            try parser.parse(Data("data: a\n\nid: 9\nevent: x\ndata: cut\ndata: more".utf8)), [.init(data: "a")])
        parser.finish()
        XCTAssertEqual(parser.lastEventID, "")
        // A new stream after finish: nothing of the cut block survives.
        XCTAssertEqual(try parser.parse(Data("data: b\n\n".utf8)), [.init(data: "b")])
    }

    func testThatANewStreamStartsFromTheLastEventIDAndSkipsItsOwnByteOrderMark() throws {
        var parser = ServerSentEventParser()
        _ = try parser.parse(Data("id: 5\nretry: 100\ndata: a\n\n".utf8))
        parser.finish()
        XCTAssertEqual(
            try parser.parse(Data([0xEF, 0xBB, 0xBF] + Array("data: b\n\n".utf8))), [.init(data: "b", id: "5")])
        XCTAssertEqual(parser.reconnectionTime, 0.1)
        let resumed = ServerSentEventParser(lastEventID: "41")
        XCTAssertEqual(try events("data: c\n\n", parser: resumed), [.init(data: "c", id: "41")])
    }

    func testThatUnknownAndMisspelledFieldsAreIgnored() throws {
        XCTAssertEqual(try events("Data: a\nDATA: b\nfoo: c\ndata : d\ndata: e\n\n"), [.init(data: "e")])
        XCTAssertEqual(try events("foo\n\n"), [])
    }

    func testThatInvalidUTF8IsReplaced() throws {
        XCTAssertEqual(try events(Array("data: a".utf8) + [0xFF] + Array("b\n\n".utf8)), [.init(data: "a\u{FFFD}b")])
        XCTAssertEqual(try events("data: é ✓ 🎉\n\n"), [.init(data: "é ✓ 🎉")])
    }

    func testThatAnEventOverTheSizeLimitFails() {
        var parser = ServerSentEventParser(maximumEventSize: 16)
        XCTAssertThrowsError(try parser.parse(Data("data: 0123456789\ndata: 0123456789\n\n".utf8))) { error in
            XCTAssertEqual((error as? TransportError)?.reason, .responseTooLarge(limit: 16))
        }
        var lines = ServerSentEventParser(maximumEventSize: 16)
        XCTAssertThrowsError(try lines.parse(Data(repeating: UInt8(ascii: "x"), count: 40)))
    }

    func testThatDataDecodesAsJSON() throws {
        struct Delta: Decodable, Equatable { let content: String }
        let event = try XCTUnwrap(try events(#"data: {"content":"hi"}"# + "\n\n").first)
        XCTAssertEqual(try event.decodeData(as: Delta.self), Delta(content: "hi"))
        XCTAssertThrowsError(try ServerSentEvent(data: "not json").decodeData(as: Delta.self))
    }
}
