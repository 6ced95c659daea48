import XCTest

@testable import EndpointKitOpenAPIReader

/// The examples of chapter 2 ("Language Overview") of the YAML 1.2.2 specification, each with
/// the node it reads as. The few that use what the reader leaves out (complex keys, local tags)
/// assert the documented behaviour instead.
final class YAMLSpecExampleTests: XCTestCase {
    func testExample2_1SequenceOfScalars() {
        XCTAssertEqual(
            readYAML("- Mark McGwire\n- Sammy Sosa\n- Ken Griffey\n"),
            seq(str("Mark McGwire"), str("Sammy Sosa"), str("Ken Griffey")))
    }

    func testExample2_2MappingScalarsToScalars() {
        let text = """
            hr:  65    # Home runs
            avg: 0.278 # Batting average
            rbi: 147   # Runs Batted In
            """
        XCTAssertEqual(readYAML(text), map(["hr": num("65"), "avg": num("0.278"), "rbi": num("147")]))
    }

    func testExample2_3MappingScalarsToSequences() {
        let text = """
            american:
            - Boston Red Sox
            - Detroit Tigers
            - New York Yankees
            national:
            - New York Mets
            - Chicago Cubs
            - Atlanta Braves
            """
        XCTAssertEqual(
            readYAML(text),
            map([
                "american": seq(str("Boston Red Sox"), str("Detroit Tigers"), str("New York Yankees")),
                "national": seq(str("New York Mets"), str("Chicago Cubs"), str("Atlanta Braves")),
            ]))
    }

    func testExample2_4SequenceOfMappings() {
        let text = """
            -
              name: Mark McGwire
              hr:   65
              avg:  0.278
            -
              name: Sammy Sosa
              hr:   63
              avg:  0.288
            """
        XCTAssertEqual(
            readYAML(text),
            seq(
                map(["name": str("Mark McGwire"), "hr": num("65"), "avg": num("0.278")]),
                map(["name": str("Sammy Sosa"), "hr": num("63"), "avg": num("0.288")])))
    }

    func testExample2_5SequenceOfSequences() {
        let text = """
            - [name        , hr, avg  ]
            - [Mark McGwire, 65, 0.278]
            - [Sammy Sosa  , 63, 0.288]
            """
        XCTAssertEqual(
            readYAML(text),
            seq(
                seq(str("name"), str("hr"), str("avg")), seq(str("Mark McGwire"), num("65"), num("0.278")),
                seq(str("Sammy Sosa"), num("63"), num("0.288"))))
    }

    func testExample2_6MappingOfMappings() {
        let text = """
            Mark McGwire: {hr: 65, avg: 0.278}
            Sammy Sosa: {
                hr: 63,
                avg: 0.288,
             }
            """
        XCTAssertEqual(
            readYAML(text),
            map([
                "Mark McGwire": map(["hr": num("65"), "avg": num("0.278")]),
                "Sammy Sosa": map(["hr": num("63"), "avg": num("0.288")]),
            ]))
    }

    func testExample2_7TwoDocumentsInAStreamReadsTheFirst() {
        let text = """
            # Ranking of 1998 home runs
            ---
            - Mark McGwire
            - Sammy Sosa
            - Ken Griffey

            # Team ranking
            ---
            - Chicago Cubs
            - St Louis Cardinals
            """
        XCTAssertEqual(readYAML(text), seq(str("Mark McGwire"), str("Sammy Sosa"), str("Ken Griffey")))
    }

    func testExample2_8PlayByPlayFeedReadsTheFirstDocument() {
        let text = """
            ---
            time: 20:03:20
            player: Sammy Sosa
            action: strike (miss)
            ...
            ---
            time: 20:03:47
            player: Sammy Sosa
            action: grand slam
            ...
            """
        XCTAssertEqual(
            readYAML(text), map(["time": str("20:03:20"), "player": str("Sammy Sosa"), "action": str("strike (miss)")]))
    }

    func testExample2_9SingleDocumentWithTwoComments() {
        let text = """
            ---
            hr: # 1998 hr ranking
            - Mark McGwire
            - Sammy Sosa
            # 1998 rbi ranking
            rbi:
            - Sammy Sosa
            - Ken Griffey
            """
        XCTAssertEqual(
            readYAML(text),
            map([
                "hr": seq(str("Mark McGwire"), str("Sammy Sosa")), "rbi": seq(str("Sammy Sosa"), str("Ken Griffey")),
            ]))
    }

    func testExample2_10AnchorAndAlias() {
        let text = """
            ---
            hr:
            - Mark McGwire
            # Following node labeled SS
            - &SS Sammy Sosa
            rbi:
            - *SS # Subsequent occurrence
            - Ken Griffey
            """
        XCTAssertEqual(
            readYAML(text),
            map([
                "hr": seq(str("Mark McGwire"), str("Sammy Sosa")), "rbi": seq(str("Sammy Sosa"), str("Ken Griffey")),
            ]))
    }

    func testExample2_11MappingBetweenSequencesIsAnError() {
        let text = """
            ? - Detroit Tigers
              - Chicago cubs
            : - 2001-07-23

            ? [ New York Yankees,
                Atlanta Braves ]
            : [ 2001-07-02, 2001-08-12,
                2001-08-14 ]
            """
        XCTAssertEqual(
            yamlError(text), ReadError("a mapping key must be a scalar, not a collection", line: 1, column: 1))
    }

    func testExample2_12CompactNestedMapping() {
        let text = """
            ---
            # Products purchased
            - item    : Super Hoop
              quantity: 1
            - item    : Basketball
              quantity: 4
            - item    : Big Shoes
              quantity: 1
            """
        XCTAssertEqual(
            readYAML(text),
            seq(
                map(["item": str("Super Hoop"), "quantity": num("1")]),
                map(["item": str("Basketball"), "quantity": num("4")]),
                map(["item": str("Big Shoes"), "quantity": num("1")])))
    }

    func testExample2_13LiteralKeepsNewlines() {
        let text = """
            # ASCII Art
            --- |
              \\//||\\/||
              // ||  ||__
            """
        XCTAssertEqual(readYAML(text + "\n"), str("\\//||\\/||\n// ||  ||__\n"))
    }

    func testExample2_14FoldedNewlinesBecomeSpaces() {
        let text = """
            --- >
              Mark McGwire's
              year was crippled
              by a knee injury.

            """
        XCTAssertEqual(readYAML(text), str("Mark McGwire's year was crippled by a knee injury.\n"))
    }

    func testExample2_15FoldedKeepsMoreIndentedAndBlankLines() {
        let text = """
            >
             Sammy Sosa completed another
             fine season with great stats.

               63 Home Runs
               0.288 Batting Average

             What a year!

            """
        XCTAssertEqual(
            readYAML(text),
            str(
                "Sammy Sosa completed another fine season with great stats.\n\n  63 Home Runs\n  0.288 Batting Average\n\nWhat a year!\n"
            ))
    }

    func testExample2_16IndentationDeterminesScope() {
        let text = """
            name: Mark McGwire
            accomplishment: >
              Mark set a major league
              home run record in 1998.
            stats: |
              65 Home Runs
              0.278 Batting Average

            """
        XCTAssertEqual(
            readYAML(text),
            map([
                "name": str("Mark McGwire"),
                "accomplishment": str("Mark set a major league home run record in 1998.\n"),
                "stats": str("65 Home Runs\n0.278 Batting Average\n"),
            ]))
    }

    func testExample2_17QuotedScalars() {
        let text = #"""
            unicode: "Sosa did fine.\u263A"
            control: "\b1998\t1999\t2000\n"
            hex esc: "\x0d\x0a is \r\n"

            single: '"Howdy!" he cried.'
            quoted: ' # Not a ''comment''.'
            tie-fighter: '|\-*-/|'
            """#
        XCTAssertEqual(
            readYAML(text),
            map([
                "unicode": str("Sosa did fine.\u{263A}"), "control": str("\u{8}1998\t1999\t2000\n"),
                "hex esc": str("\r\n is \r\n"), "single": str("\"Howdy!\" he cried."),
                "quoted": str(" # Not a 'comment'."),
                "tie-fighter": str("|\\-*-/|"),
            ]))
    }

    func testExample2_18MultiLineFlowScalars() {
        let text = """
            plain:
              This unquoted scalar
              spans many lines.

            quoted: "So does this
              quoted scalar.\\n"
            """
        XCTAssertEqual(
            readYAML(text),
            map([
                "plain": str("This unquoted scalar spans many lines."), "quoted": str("So does this quoted scalar.\n"),
            ]))
    }

    func testExample2_19Integers() {
        let text = "canonical: 12345\ndecimal: +12345\noctal: 0o14\nhexadecimal: 0xC\n"
        XCTAssertEqual(
            readYAML(text),
            map(["canonical": num("12345"), "decimal": num("+12345"), "octal": num("0o14"), "hexadecimal": num("0xC")]))
    }

    func testExample2_20FloatingPoint() {
        let text = """
            canonical: 1.23015e+3
            exponential: 12.3015e+02
            fixed: 1230.15
            negative infinity: -.inf
            not a number: .nan
            """
        XCTAssertEqual(
            readYAML(text),
            map([
                "canonical": num("1.23015e+3"), "exponential": num("12.3015e+02"), "fixed": num("1230.15"),
                "negative infinity": num("-.inf"), "not a number": num(".nan"),
            ]))
    }

    func testExample2_21Miscellaneous() {
        let text = "null:\nbooleans: [ true, false ]\nstring: '012345'\n"
        XCTAssertEqual(
            readYAML(text),
            map(["null": .null, "booleans": seq(.bool(true), .bool(false)), "string": str("012345")]))
    }

    func testExample2_22TimestampsAreStrings() {
        let text = """
            canonical: 2001-12-15T02:59:43.1Z
            iso8601: 2001-12-14t21:59:43.10-05:00
            spaced: 2001-12-14 21:59:43.10 -5
            date: 2002-12-14
            """
        XCTAssertEqual(
            readYAML(text),
            map([
                "canonical": str("2001-12-15T02:59:43.1Z"), "iso8601": str("2001-12-14t21:59:43.10-05:00"),
                "spaced": str("2001-12-14 21:59:43.10 -5"), "date": str("2002-12-14"),
            ]))
    }

    func testExample2_23VariousExplicitTags() {
        let text = """
            ---
            not-date: !!str 2002-04-28

            picture: !!binary |
             R0lGODlhDAAMAIQAAP//9/X
             17unp5WZmZgAAAOfn515eXv
             Pz7Y6OjuDg4J+fn5OTk6enp
             56enmleECcgggoBADs=

            application specific tag: !something |
             The semantics of the tag
             above may be different for
             different documents.

            """
        XCTAssertEqual(
            readYAML(text),
            map([
                "not-date": str("2002-04-28"),
                "picture": str(
                    "R0lGODlhDAAMAIQAAP//9/X\n17unp5WZmZgAAAOfn515eXv\nPz7Y6OjuDg4J+fn5OTk6enp\n56enmleECcgggoBADs=\n"),
                "application specific tag": str(
                    "The semantics of the tag\nabove may be different for\ndifferent documents.\n"),
            ]))
    }

    func testExample2_24GlobalTagsAreIgnored() {
        let text = """
            %TAG ! tag:clarkevans.com,2002:
            --- !shape
              # Use the ! handle for presenting
              # tag:clarkevans.com,2002:circle
            - !circle
              center: &ORIGIN {x: 73, y: 129}
              radius: 7
            - !line
              start: *ORIGIN
              finish: { x: 89, y: 102 }
            - !label
              start: *ORIGIN
              color: 0xFFEEBB
              text: Pretty vector drawing.
            """
        let origin = map(["x": num("73"), "y": num("129")])
        XCTAssertEqual(
            readYAML(text),
            seq(
                map(["center": origin, "radius": num("7")]),
                map(["start": origin, "finish": map(["x": num("89"), "y": num("102")])]),
                map(["start": origin, "color": num("0xFFEEBB"), "text": str("Pretty vector drawing.")])))
    }

    func testExample2_25UnorderedSetReadsAsAMappingToNulls() {
        let text = """
            # Sets are represented as a
            # Mapping where each key is
            # associated with a null value
            --- !!set
            ? Mark McGwire
            ? Sammy Sosa
            ? Ken Griffey
            """
        XCTAssertEqual(readYAML(text), map(["Mark McGwire": .null, "Sammy Sosa": .null, "Ken Griffey": .null]))
    }

    func testExample2_26OrderedMappingReadsAsASequenceOfMappings() {
        let text = """
            # Ordered maps are represented as
            # A sequence of mappings, with
            # each mapping having one key
            --- !!omap
            - Mark McGwire: 65
            - Sammy Sosa: 63
            - Ken Griffey: 58
            """
        XCTAssertEqual(
            readYAML(text),
            seq(map(["Mark McGwire": num("65")]), map(["Sammy Sosa": num("63")]), map(["Ken Griffey": num("58")])))
    }

    func testExample2_27Invoice() {
        let text = """
            --- !<tag:clarkevans.com,2002:invoice>
            invoice: 34843
            date   : 2001-01-23
            bill-to: &id001
              given  : Chris
              family : Dumars
              address:
                lines: |
                  458 Walkman Dr.
                  Suite #292
                city    : Royal Oak
                state   : MI
                postal  : 48046
            ship-to: *id001
            product:
            - sku         : BL394D
              quantity    : 4
              description : Basketball
              price       : 450.00
            - sku         : BL4438H
              quantity    : 1
              description : Super Hoop
              price       : 2392.00
            tax  : 251.42
            total: 4443.52
            comments:
              Late afternoon is best.
              Backup contact is Nancy
              Billsmer @ 338-4338.
            """
        let billTo = map([
            "given": str("Chris"), "family": str("Dumars"),
            "address": map([
                "lines": str("458 Walkman Dr.\nSuite #292\n"), "city": str("Royal Oak"), "state": str("MI"),
                "postal": num("48046"),
            ]),
        ])
        XCTAssertEqual(
            readYAML(text),
            map([
                "invoice": num("34843"), "date": str("2001-01-23"), "bill-to": billTo, "ship-to": billTo,
                "product": seq(
                    map([
                        "sku": str("BL394D"), "quantity": num("4"), "description": str("Basketball"),
                        "price": num("450.00"),
                    ]),
                    map([
                        "sku": str("BL4438H"), "quantity": num("1"), "description": str("Super Hoop"),
                        "price": num("2392.00"),
                    ])),
                "tax": num("251.42"), "total": num("4443.52"),
                "comments": str("Late afternoon is best. Backup contact is Nancy Billsmer @ 338-4338."),
            ]))
    }

    func testExample2_28LogFileReadsTheFirstDocument() {
        let text = """
            ---
            Time: 2001-11-23 15:01:42 -5
            User: ed
            Warning:
              This is an error message
              for the log file
            ---
            Time: 2001-11-23 15:02:31 -5
            User: ed
            Warning:
              A slightly different error
              message.
            ---
            Date: 2001-11-23 15:03:17 -5
            User: ed
            Fatal:
              Unknown variable "bar"
            Stack:
            - file: TopClass.py
              line: 23
              code: |
                x = MoreObject("345\\n")
            - file: MoreClass.py
              line: 58
              code: |-
                foo = bar
            """
        XCTAssertEqual(
            readYAML(text),
            map([
                "Time": str("2001-11-23 15:01:42 -5"), "User": str("ed"),
                "Warning": str("This is an error message for the log file"),
            ]))
        let third = text.components(separatedBy: "---\n").last ?? ""
        XCTAssertEqual(
            readYAML(third),
            map([
                "Date": str("2001-11-23 15:03:17 -5"), "User": str("ed"), "Fatal": str("Unknown variable \"bar\""),
                "Stack": seq(
                    map(["file": str("TopClass.py"), "line": num("23"), "code": str("x = MoreObject(\"345\\n\")\n")]),
                    map(["file": str("MoreClass.py"), "line": num("58"), "code": str("foo = bar")])),
            ]))
    }
}
