import Foundation
import Testing

@testable import EndpointKit

/// The parts of `FormEncoder` that need no server: snake-case conversion (the cases Foundation's
/// own tests give `JSONEncoder`) and when its items carry a percent-encoding of their own.
@Suite("FormEncoder without a server")
struct FormEncoderUnitTests {
    @Test(
        "Keys convert to snake case as JSONEncoder converts them",
        arguments: [
            ("simpleOneTwo", "simple_one_two"), ("myURL", "my_url"),
            ("singleCharacterAtEndX", "single_character_at_end_x"),
            ("thisIsAnXMLProperty", "this_is_an_xml_property"), ("single", "single"), ("", ""), ("a", "a"),
            ("aA", "a_a"), ("version4Thing", "version4_thing"), ("partCAPS", "part_caps"),
            ("partCAPSLowerAGAIN", "part_caps_lower_again"), ("manyWordsInThisThing", "many_words_in_this_thing"),
            ("asdfĆqer", "asdf_ćqer"), ("already_snake_case", "already_snake_case"), ("dataPoint22", "data_point22"),
            ("dataPoint22Word", "data_point22_word"), ("_oneTwoThree", "_one_two_three"),
            ("oneTwoThree_", "one_two_three_"), ("__oneTwoThree", "__one_two_three"),
            ("oneTwoThree__", "one_two_three__"), ("_oneTwoThree_", "_one_two_three_"), ("_test", "_test"),
            ("userID", "user_id"), ("🐧🐟", "🐧🐟"),
        ])
    func snakeCase(key: String, expected: String) {
        #expect(SnakeCase.convert(key) == expected)
    }

    @Test("The default options are the standard percent-encoding, so their items carry none")
    func defaultSpelling() {
        #expect(FormEncoder().spelling == nil)
        #expect(FormEncoder(spaceEncoding: .plusReplaced).spelling != nil)
        #expect(FormEncoder(allowedCharacters: .urlQueryAllowed).spelling != nil)
    }

}
