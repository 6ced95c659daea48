import XCTest

@testable import EndpointKitOpenAPIReader

/// Examples of chapters 6 to 8 of the YAML 1.2.2 specification: line folding, the quoted and
/// plain styles, flow collections, block scalars with their chomping and indentation indicators.
final class YAMLScalarStyleTests: XCTestCase {
    func testExample6_4LinePrefixes() {
        let text = "plain: text\n  lines\nquoted: \"text\n  \tlines\"\nblock: |\n  text\n   \tlines\n"
        XCTAssertEqual(
            readYAML(text),
            map(["plain": str("text lines"), "quoted": str("text lines"), "block": str("text\n \tlines\n")]))
    }

    func testExample6_5EmptyLines() {
        let text = "Folding:\n  \"Empty line\n   \t\n  as a line feed\"\nChomping: |\n  Clipped empty lines\n \n"
        XCTAssertEqual(
            readYAML(text),
            map(["Folding": str("Empty line\nas a line feed"), "Chomping": str("Clipped empty lines\n")]))
    }

    func testExample6_6LineFolding() {
        XCTAssertEqual(readYAML(">-\n  trimmed\n  \n \n\n  as\n  space"), str("trimmed\n\n\nas space"))
    }

    func testExample6_7BlockFolding() {
        XCTAssertEqual(readYAML(">\n  foo \n \n  \t bar\n\n  baz\n"), str("foo \n\n\t bar\n\nbaz\n"))
    }

    func testExample6_8FlowFolding() {
        XCTAssertEqual(readYAML("\"\n  foo \n \n  \t bar\n\n  baz\n\""), str(" foo\nbar\nbaz "))
    }

    func testExample6_9SeparatedComment() {
        XCTAssertEqual(readYAML("key:    # Comment\n  value"), map(["key": str("value")]))
    }

    func testExample7_4DoubleQuotedImplicitKeys() {
        let text = "\"implicit block key\" : [\n  \"implicit flow key\" : value,\n ]"
        XCTAssertEqual(readYAML(text), map(["implicit block key": seq(map(["implicit flow key": str("value")]))]))
    }

    func testExample7_5DoubleQuotedLineBreaks() {
        let text = "\"folded \nto a space,\t\n \nto a line feed, or \t\\\n \\ \tnon-content\""
        XCTAssertEqual(readYAML(text), str("folded to a space,\nto a line feed, or \t \tnon-content"))
    }

    func testExample7_6DoubleQuotedLines() {
        XCTAssertEqual(
            readYAML("\" 1st non-empty\n\n 2nd non-empty \n\t3rd non-empty \""),
            str(" 1st non-empty\n2nd non-empty 3rd non-empty "))
    }

    func testExample7_7And7_9SingleQuoted() {
        XCTAssertEqual(readYAML("'here''s to \"quotes\"'"), str("here's to \"quotes\""))
        XCTAssertEqual(
            readYAML("' 1st non-empty\n\n 2nd non-empty \n\t3rd non-empty '"),
            str(" 1st non-empty\n2nd non-empty 3rd non-empty "))
        XCTAssertEqual(
            readYAML("'implicit block key' : [\n  'implicit flow key' : value,\n ]"),
            map(["implicit block key": seq(map(["implicit flow key": str("value")]))]))
    }

    func testExample7_10PlainCharacters() {
        let text = """
            # Outside flow collection:
            - ::vector
            - ": - ()"
            - Up, up, and away!
            - -123
            - https://example.com/foo#bar
            # Inside flow collection:
            - [ ::vector,
              ": - ()",
              "Up, up and away!",
              -123,
              https://example.com/foo#bar ]
            """
        XCTAssertEqual(
            readYAML(text),
            seq(
                str("::vector"), str(": - ()"), str("Up, up, and away!"), num("-123"),
                str("https://example.com/foo#bar"),
                seq(
                    str("::vector"), str(": - ()"), str("Up, up and away!"), num("-123"),
                    str("https://example.com/foo#bar"))))
    }

    func testExample7_12PlainLines() {
        XCTAssertEqual(
            readYAML("1st non-empty\n\n 2nd non-empty \n\t3rd non-empty"),
            str("1st non-empty\n2nd non-empty 3rd non-empty"))
    }

    func testExample7_13To7_15FlowSequencesAndMappings() {
        XCTAssertEqual(
            readYAML("- [ one, two, ]\n- [three ,four]"),
            seq(seq(str("one"), str("two")), seq(str("three"), str("four"))))
        XCTAssertEqual(
            readYAML("- { one : two , three: four , }\n- {five: six,seven : eight}"),
            seq(map(["one": str("two"), "three": str("four")]), map(["five": str("six"), "seven": str("eight")])))
    }

    func testExample7_14FlowSequenceEntries() {
        let text = "[\n\"double\n quoted\", 'single\n           quoted',\nplain\n text, [ nested ],\nsingle: pair,\n]"
        XCTAssertEqual(
            readYAML(text),
            seq(
                str("double quoted"), str("single quoted"), str("plain text"), seq(str("nested")),
                map(["single": str("pair")])))
    }

    func testExample7_16To7_18FlowMappingEntries() {
        XCTAssertEqual(
            readYAML("{\n? explicit: entry,\nimplicit: entry,\n?\n}"),
            map(["explicit": str("entry"), "implicit": str("entry"), "": .null]))
        XCTAssertEqual(
            readYAML("{\nunquoted : \"separate\",\nhttps://foo.com,\nomitted value:,\n: omitted key,\n}"),
            map(["unquoted": str("separate"), "https://foo.com": .null, "omitted value": .null, "": str("omitted key")])
        )
        XCTAssertEqual(
            readYAML("{\n\"adjacent\":value,\n\"readable\": value,\n\"empty\":\n}"),
            map(["adjacent": str("value"), "readable": str("value"), "empty": .null]))
    }

    func testExample7_19To7_21SinglePairFlowMappings() {
        XCTAssertEqual(readYAML("[\nfoo: bar\n]"), seq(map(["foo": str("bar")])))
        XCTAssertEqual(readYAML("[\n? foo\n bar : baz\n]"), seq(map(["foo bar": str("baz")])))
        XCTAssertEqual(
            readYAML("- [ YAML : separate ]\n- [ : empty key entry ]"),
            seq(seq(map(["YAML": str("separate")])), seq(map(["": str("empty key entry")]))))
        XCTAssertEqual(
            yamlError("- [ {JSON: like}:adjacent ]"),
            ReadError("a mapping key must be a scalar, not a collection", line: 1, column: 5))
    }

    func testExample7_23And7_24FlowContentAndNodes() {
        XCTAssertEqual(
            readYAML("- [ a, b ]\n- { a: b }\n- \"a\"\n- 'b'\n- c"),
            seq(seq(str("a"), str("b")), map(["a": str("b")]), str("a"), str("b"), str("c")))
        XCTAssertEqual(
            readYAML("- !!str \"a\"\n- 'b'\n- &anchor \"c\"\n- *anchor\n- !!str"),
            seq(str("a"), str("b"), str("c"), str("c"), str("")))
    }

    func testExample8_1BlockScalarHeader() {
        let text =
            "- | # Empty header\n literal\n- >1 # Indentation indicator\n  folded\n- |+ # Chomping indicator\n keep\n\n- >1- # Both indicators\n  strip\n"
        XCTAssertEqual(readYAML(text), seq(str("literal\n"), str(" folded\n"), str("keep\n\n"), str(" strip")))
    }

    func testExample8_2BlockIndentationIndicator() {
        let text = "- |\n detected\n- >\n \n  \n  # detected\n- |1\n  explicit\n- >\n \t\n detected\n"
        XCTAssertEqual(
            readYAML(text), seq(str("detected\n"), str("\n\n# detected\n"), str(" explicit\n"), str("\t\ndetected\n")))
    }

    func testExample8_3InvalidBlockScalarIndentation() {
        XCTAssertEqual(
            yamlError("- |\n  \n text\n"),
            ReadError("a leading empty line has more spaces than the block scalar's first line", line: 3, column: 1))
        XCTAssertEqual(
            yamlError("- >\n  text\n text\n"), ReadError("bad indentation of a sequence entry", line: 3, column: 2))
        XCTAssertEqual(yamlError("- |2\n text\n"), ReadError("bad indentation of a sequence entry", line: 2, column: 2))
    }

    func testExample8_4And8_5Chomping() {
        XCTAssertEqual(
            readYAML("strip: |-\n  text\nclip: |\n  text\nkeep: |+\n  text\n"),
            map(["strip": str("text"), "clip": str("text\n"), "keep": str("text\n")]))
        let text =
            " # Strip\n  # Comments:\nstrip: |-\n  # text\n  \n # Clip\n  # comments:\n\nclip: |\n  # text\n \n # Keep\n  # comments:\n\nkeep: |+\n  # text\n\n # Trail\n  # comments.\n"
        XCTAssertEqual(
            readYAML(text), map(["strip": str("# text"), "clip": str("# text\n"), "keep": str("# text\n\n")]))
    }

    func testExample8_6EmptyScalarChomping() {
        XCTAssertEqual(
            readYAML("strip: >-\n\nclip: >\n\nkeep: |+\n\n"),
            map(["strip": str(""), "clip": str(""), "keep": str("\n")]))
    }

    func testExample8_7To8_9LiteralAndFoldedScalars() {
        XCTAssertEqual(readYAML("|\n literal\n \ttext\n\n"), str("literal\n\ttext\n"))
        XCTAssertEqual(
            readYAML("|\n \n  \n  literal\n   \n  \n  text\n\n # Comment\n"), str("\n\nliteral\n \n\ntext\n"))
        XCTAssertEqual(readYAML(">\n folded\n text\n\n"), str("folded text\n"))
    }

    func testExample8_10FoldedLines() {
        let text =
            ">\n\n folded\n line\n\n next\n line\n   * bullet\n\n   * list\n   * lines\n\n last\n line\n\n# Comment\n"
        XCTAssertEqual(
            readYAML(text), str("\nfolded line\nnext line\n  * bullet\n\n  * list\n  * lines\n\nlast line\n"))
    }

    func testZeroIndentedTopLevelBlockScalarKeepsALineThatLooksLikeAComment() {
        XCTAssertEqual(readYAML("--- >\nline1\n# no comment\nline3\n"), str("line1 # no comment line3\n"))
    }

    func testMoreIndentedFirstLinesOfAFoldedScalar() {
        XCTAssertEqual(
            readYAML("---\na: >2\n   more indented\n  regular\nb: >2\n\n\n   more indented\n  regular\n"),
            map(["a": str(" more indented\nregular\n"), "b": str("\n\n more indented\nregular\n")]))
    }

    func testExample8_14To8_15BlockSequences() {
        XCTAssertEqual(
            readYAML("block sequence:\n  - one\n  - two : three\n"),
            map(["block sequence": seq(str("one"), map(["two": str("three")]))]))
        XCTAssertEqual(
            readYAML(
                "- # Empty\n- |\n block node\n- - one # Compact\n  - two # sequence\n- one: two # Compact mapping\n"),
            seq(.null, str("block node\n"), seq(str("one"), str("two")), map(["one": str("two")])))
    }

    func testExample8_17To8_19BlockMappings() {
        XCTAssertEqual(
            readYAML(
                "? explicit key # Empty value\n? |\n  block key\n: - one # Explicit compact\n  - two # block value\n"),
            map(["explicit key": .null, "block key\n": seq(str("one"), str("two"))]))
        XCTAssertEqual(
            readYAML("plain key: in-line value\n: # Both empty\n\"quoted key\":\n- entry\n"),
            map(["plain key": str("in-line value"), "": .null, "quoted key": seq(str("entry"))]))
        XCTAssertEqual(
            yamlError("- sun: yellow\n- ? earth: blue\n  : moon: white\n"),
            ReadError("a mapping key must be a scalar, not a collection", line: 2, column: 3))
    }

    func testExample8_20BlockNodeTypes() {
        XCTAssertEqual(
            readYAML("-\n  \"flow in block\"\n- >\n Block scalar\n- !!map # Block collection\n  foo : bar\n"),
            seq(str("flow in block"), str("Block scalar\n"), map(["foo": str("bar")])))
    }

    func testExample8_22BlockCollectionNodes() {
        XCTAssertEqual(
            readYAML("sequence: !!seq\n- entry\n- !!seq\n - nested\nmapping: !!map\n foo: bar\n"),
            map(["sequence": seq(str("entry"), seq(str("nested"))), "mapping": map(["foo": str("bar")])]))
    }
}
