import XCTest

@testable import EndpointKitOpenAPIReader

/// The YAML reader beyond the specification's examples: what OpenAPI documents use, the core
/// schema, tags, merge keys, errors with their positions, and the limits.
final class YAMLReaderTests: XCTestCase {
    func testOpenAPIShapedDocument() {
        let text = """
            openapi: 3.1.0
            info:
              title: Pets
              version: "1.0"
            paths:
              /pets/{id}:
                get:
                  parameters:
                  - name: id
                    in: path
                    required: true
                    schema: {type: integer, format: int64}
                  responses:
                    200:
                      description: >-
                        A pet, folded
                        over lines.
                    default:
                      $ref: '#/components/responses/Error'
            """
        let parameter = map([
            "name": str("id"), "in": str("path"), "required": .bool(true),
            "schema": map(["type": str("integer"), "format": str("int64")]),
        ])
        let responses = map([
            "200": map(["description": str("A pet, folded over lines.")]),
            "default": map(["$ref": str("#/components/responses/Error")]),
        ])
        XCTAssertEqual(
            readYAML(text),
            map([
                "openapi": str("3.1.0"), "info": map(["title": str("Pets"), "version": str("1.0")]),
                "paths": map(["/pets/{id}": map(["get": map(["parameters": seq(parameter), "responses": responses])])]),
            ]))
    }

    func testCoreSchemaResolvesPlainScalarsOnly() {
        let plain = [
            "null", "Null", "NULL", "~", "true", "True", "TRUE", "false", "False", "FALSE", "0", "-12", "+7", "0o17",
            "0x1F",
            "1.5", "-.5", "1.", "1e3", "+1.5E-3", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", ".NAN", "1.2.3", "0x",
            "0o8",
            "1_000", "yes", "+.nan", "-x", ".", "e3", "1e", "nulls",
        ]
        let expected: [Node] = [
            .null, .null, .null, .null, .bool(true), .bool(true), .bool(true), .bool(false), .bool(false), .bool(false),
            num("0"), num("-12"), num("+7"), num("0o17"), num("0x1F"), num("1.5"), num("-.5"), num("1."), num("1e3"),
            num("+1.5E-3"), num(".inf"), num("-.Inf"), num("+.INF"), num(".nan"), num(".NaN"), num(".NAN"),
            str("1.2.3"),
            str("0x"), str("0o8"), str("1_000"), str("yes"), str("+.nan"), str("-x"), str("."), str("e3"), str("1e"),
            str("nulls"),
        ]
        for (text, node) in zip(plain, expected) {
            XCTAssertEqual(readYAML("- " + text)?.elements?.first, node, text)
        }
        XCTAssertEqual(readYAML("- 'true'\n- \"1\"\n- |\n  null\n"), seq(str("true"), str("1"), str("null\n")))
        XCTAssertEqual(readYAML("a:\nb: ~\nc:   # nothing\n"), map(["a": .null, "b": .null, "c": .null]))
    }

    func testKeysAreTheirScalarText() {
        XCTAssertEqual(
            readYAML("200: ok\n\"a b\": 1\nnull: 2\n~: 3\ntrue: 4\n'x''y': 5\n1.50: 6"),
            map([
                "200": str("ok"), "a b": num("1"), "null": num("2"), "~": num("3"), "true": num("4"), "x'y": num("5"),
                "1.50": num("6"),
            ]))
    }

    func testCommentsNeedWhitespaceBeforeThem() {
        XCTAssertEqual(
            readYAML("# head\na#b: c#d # comment\n  # indented comment\nlist: # after key\n- x #1\n# end"),
            map(["a#b": str("c#d"), "list": seq(str("x"))]))
        XCTAssertEqual(readYAML("[a#b, c] # after"), seq(str("a#b"), str("c")))
    }

    func testSequencesAtTheParentKeysIndentationAndCompactForms() {
        let text = """
            a:
            - b
            - - c
              - d
            - e: 1
              f: 2
            - ? g
              : h
            i: j
            """
        XCTAssertEqual(
            readYAML(text),
            map([
                "a": seq(str("b"), seq(str("c"), str("d")), map(["e": num("1"), "f": num("2")]), map(["g": str("h")])),
                "i": str("j"),
            ]))
    }

    func testMergeKeys() {
        let text = """
            base: &base
              a: 1
              b: 2
            other: &other {c: 3, a: 9}
            one:
              x: 0
              <<: *base
              b: 3
            many:
              <<: [*base, *other]
            quoted:
              "<<": *base
            """
        let node = readYAML(text)
        XCTAssertEqual(node?["one"], map(["x": num("0"), "a": num("1"), "b": num("3")]))
        XCTAssertEqual(node?["many"], map(["a": num("1"), "b": num("2"), "c": num("3")]))
        XCTAssertEqual(node?["quoted"], map(["<<": map(["a": num("1"), "b": num("2")])]))
        XCTAssertEqual(readYAML("a: {<<: {b: 1}, c: 2}"), map(["a": map(["b": num("1"), "c": num("2")])]))
        XCTAssertEqual(
            yamlError("a:\n  <<: 1\n"),
            ReadError("a merge key (<<) needs a mapping or a sequence of mappings", line: 2, column: 3))
    }

    func testAnchorsOnCollectionsAndKeys() {
        let shared = map(["x": seq(num("1"), str("two"))])
        XCTAssertEqual(
            readYAML("a: &m\n  x: [1, &s two]\nb: *m\nc: *s\n&k key: v\n*k : w"),
            map(["a": shared, "b": shared, "c": str("two"), "key": str("v"), "key": str("w")]))
    }

    func testTags() {
        let text = """
            - !!str 12
            - !!int "42"
            - !!float 1
            - !!bool 'True'
            - !!null ''
            - !!map
            - !!seq
            - !local 12
            - !<tag:yaml.org,2002:str> 12
            - ! 12
            - !e!thing true
            - !!binary aGk=
            - &a !!str 7
            - !!str &b 8
            """
        XCTAssertEqual(
            readYAML(text),
            seq(
                str("12"), num("42"), num("1"), .bool(true), .null, map([:]), seq(), num("12"), str("12"), str("12"),
                .bool(true), str("aGk="), str("7"), str("8")))
        XCTAssertEqual(yamlError("a: !!int x1"), ReadError("!!int value \"x1\" is not an integer", line: 1, column: 10))
        XCTAssertEqual(
            yamlError("a: !!bool yes"), ReadError("!!bool value \"yes\" is not true or false", line: 1, column: 11))
        XCTAssertEqual(yamlError("a: !!map x"), ReadError("a !!map tag on a scalar", line: 1, column: 10))
        XCTAssertEqual(yamlError("a: !!seq\n  b: c"), ReadError("a !!seq tag on a mapping", line: 1, column: 4))
        XCTAssertEqual(yamlError("a: !!str [1]"), ReadError("a scalar tag on a collection", line: 1, column: 4))
    }

    func testDoubleQuotedEscapes() {
        let text = #""\n \t \" \\ \/ \x41 \u00e9 \U0001F600 \N \_ \L \P \0 \a \b \e \f \r \v \  "# + "\\\t\""
        XCTAssertEqual(
            readYAML(text),
            str(
                "\n \t \" \\ / A é 😀 \u{85} \u{A0} \u{2028} \u{2029} \u{0} \u{7} \u{8} \u{1B} \u{C} \r \u{B}   \t"))
        XCTAssertEqual(yamlError(#""a\q""#), ReadError("unknown escape \\'q'", line: 1, column: 3))
        XCTAssertEqual(
            yamlError(#""\uD800""#), ReadError("escape \\u is not a Unicode scalar value", line: 1, column: 2))
        XCTAssertEqual(yamlError(#""\x4""#), ReadError("\\x needs 2 hexadecimal digits", line: 1, column: 2))
        XCTAssertEqual(yamlError(#""\U00110000""#)?.message, "escape \\U is not a Unicode scalar value")
    }

    func testDocumentsMarkersAndDirectives() {
        XCTAssertEqual(readYAML("%YAML 1.2\n%TAG !e! tag:example.com,2000:\n--- a\n... # end\ngarbage: [\n"), str("a"))
        XCTAssertEqual(readYAML("a: 1\n---\nb: 2\n"), map(["a": num("1")]))
        XCTAssertEqual(readYAML(""), .null)
        XCTAssertEqual(readYAML("# only a comment\n\n"), .null)
        XCTAssertEqual(readYAML("---\n---\na"), .null)
        XCTAssertEqual(readYAML("--- |\n  text\n"), str("text\n"))
        XCTAssertEqual(
            yamlError("%YAML 1.2\na: 1"), ReadError("expected '---' after the directives", line: 2, column: 1))
    }

    func testLineEndingsAndByteOrderMark() {
        XCTAssertEqual(readYAML("a: 1\r\nb:\r\n  - \"x\r\n  y\"\r\n"), map(["a": num("1"), "b": seq(str("x y"))]))
        XCTAssertEqual(
            try YAMLReader.read([0xEF, 0xBB, 0xBF] + Array("a: 1\nb: 2\n".utf8)), map(["a": num("1"), "b": num("2")]))
        XCTAssertEqual(readYAML("a: |\r\n  x\r\n  y\r\n"), map(["a": str("x\ny\n")]))
    }

    func testErrorsCarryLineAndColumn() {
        XCTAssertEqual(yamlError("a:\n\tb: 1"), ReadError("a tab character cannot indent a line", line: 2, column: 1))
        XCTAssertEqual(
            yamlError("a: b: c"),
            ReadError(
                "a mapping value is not allowed here (a key must be on one line, in a block mapping)", line: 1,
                column: 5))
        XCTAssertEqual(yamlError("a: [1]\n  b: 2"), ReadError("bad indentation of a mapping entry", line: 2, column: 3))
        XCTAssertEqual(
            yamlError("a: 1\n  b: 2"),
            ReadError(
                "a mapping value is not allowed here (a key must be on one line, in a block mapping)", line: 2,
                column: 4))
        XCTAssertEqual(yamlError("- [a]\n  - b"), ReadError("bad indentation of a sequence entry", line: 2, column: 3))
        XCTAssertEqual(
            yamlError("a:\n  - b\n - c"), ReadError("bad indentation of a mapping entry", line: 3, column: 2))
        XCTAssertEqual(readYAML("- a\n  - b"), seq(str("a - b")))
        XCTAssertEqual(
            yamlError("a: 1\nb\nc: 2"),
            ReadError("expected ':' after the mapping key \"b\" (started at column 1)", line: 2, column: 2))
        XCTAssertEqual(
            yamlError("- a\nb: 1"), ReadError("expected the end of the document, found 'b'", line: 2, column: 1))
        XCTAssertEqual(yamlError("a: \"x\n  y"), ReadError("unterminated double-quoted scalar", line: 1, column: 4))
        XCTAssertEqual(yamlError("a: 'x"), ReadError("unterminated single-quoted scalar", line: 1, column: 4))
        XCTAssertEqual(yamlError("a: [1, 2\nb: 3"), ReadError("unterminated flow sequence", line: 1, column: 4))
        XCTAssertEqual(yamlError("a: {x: 1"), ReadError("unterminated flow mapping", line: 1, column: 4))
        XCTAssertEqual(yamlError("[a b c"), ReadError("unterminated flow sequence", line: 1, column: 1))
        XCTAssertEqual(
            yamlError("[a, b c}"), ReadError("expected ',' or ']' in a flow collection, found '}'", line: 1, column: 8))
        XCTAssertEqual(yamlError("a: *nope"), ReadError("unknown alias *nope", line: 1, column: 4))
        XCTAssertEqual(yamlError("a: &x *x"), ReadError("an alias cannot have an anchor or a tag", line: 1, column: 7))
        XCTAssertEqual(
            yamlError("[a]: b"), ReadError("a mapping key must be a scalar, not a collection", line: 1, column: 1))
        XCTAssertEqual(
            yamlError("\"a\nb\": c"), ReadError("an implicit mapping key must be on one line", line: 1, column: 1))
        XCTAssertEqual(
            yamlError("a: - b"), ReadError("a block collection cannot start on this line", line: 1, column: 4))
        XCTAssertEqual(yamlError("a: @b"), ReadError("unexpected '@' at the start of a node", line: 1, column: 4))
        XCTAssertEqual(
            yamlError("a: |x\n  b"), ReadError("unexpected 'x' in a block scalar header", line: 1, column: 5))
        XCTAssertEqual(
            yamlError("a: \u{1}"), ReadError("control character byte 0x01 is not allowed", line: 1, column: 4))
    }

    func testInvalidUTF8IsAnError() {
        XCTAssertThrowsError(try YAMLReader.read([0x61, 0x3A, 0x20, 0xFF])) { error in
            XCTAssertEqual(error as? ReadError, ReadError("invalid UTF-8", line: 1, column: 4))
        }
    }

    func testBillionLaughsIsRefused() {
        var text = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        let names = ["b", "c", "d", "e", "f", "g", "h", "i"]
        var previous = "a"
        for name in names {
            let aliases = Array(repeating: "*\(previous)", count: 10).joined(separator: ", ")
            text += "\(name): &\(name) [\(aliases)]\n"
            previous = name
        }
        let error = yamlError(text)
        XCTAssertEqual(error?.message, "too many aliases expanded (over 1000000 nodes)")
        XCTAssertEqual(error?.line, 6)
    }

    func testNestingDepthIsLimited() {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        XCTAssertNotNil(readYAML(deepest))
        XCTAssertEqual(
            yamlError(String(repeating: "[", count: 513) + String(repeating: "]", count: 513)),
            ReadError("nesting deeper than 512 collections", line: 1, column: 513))
        XCTAssertEqual(
            yamlError(String(repeating: "{a: ", count: 100_000))?.message, "nesting deeper than 512 collections")
        var block = ""
        for level in 0..<600 { block += String(repeating: " ", count: level) + "k:\n" }
        XCTAssertEqual(yamlError(block), ReadError("nesting deeper than 512 collections", line: 513, column: 513))
        XCTAssertEqual(
            yamlError(String(repeating: "- ", count: 600) + "x")?.message, "nesting deeper than 512 collections")
    }

    func testTruncatedDocumentsNeverCrash() {
        let text = """
            %YAML 1.2
            ---
            a: &x {b: [1, "two\\u00e9", 'th''ree'], c: !!str 4}
            d:
            - *x
            - ? e
              : |+2
                 f

            - >-
              g
              h
            "i j": ~ # c
            <<: *x
            ...
            """
        let bytes = Array(text.utf8)
        for length in 0...bytes.count {
            _ = try? YAMLReader.read(Array(bytes[0..<length]))
            _ = try? DocumentReader.read(Array(bytes[0..<length]))
        }
    }

    func testDocumentReaderPicksJSONOrYAML() throws {
        XCTAssertEqual(try DocumentReader.read(" \n{\"a\": [1]}"), map(["a": seq(num("1"))]))
        XCTAssertEqual(try DocumentReader.read([0xEF, 0xBB, 0xBF] + Array("[true]".utf8)), seq(.bool(true)))
        XCTAssertEqual(try DocumentReader.read("a: [1]"), map(["a": seq(num("1"))]))
        XCTAssertThrowsError(try DocumentReader.read("{a: 1}")) { error in
            XCTAssertEqual(error as? ReadError, ReadError("expected a string key, found 'a'", line: 1, column: 2))
        }
    }
}
