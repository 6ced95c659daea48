import EndpointKit

/// Compares two JSON values semantically and lists where they differ, one path per line:
/// `- $.user.name: "Ada"` (expected) and `+ $.user.name: "Bob"` (actual).
///
/// Object key order does not matter; numbers compare by value, so `1` equals `1.0`.
enum JSONDiff {
    static func lines(expected: JSONValue, actual: JSONValue) -> [String] {
        var lines: [String] = []
        compare(expected, actual, path: "$", into: &lines)
        return lines
    }

    private static func compare(_ expected: JSONValue, _ actual: JSONValue, path: String, into lines: inout [String]) {
        switch (expected, actual) {
        case (.object(let expectedObject), .object(let actualObject)):
            for key in Set(expectedObject.keys).union(actualObject.keys).sorted() {
                let childPath = path + member(key)
                switch (expectedObject[key], actualObject[key]) {
                case (let expectedValue?, let actualValue?):
                    compare(expectedValue, actualValue, path: childPath, into: &lines)
                case (let expectedValue?, nil):
                    lines.append("- \(childPath): \(expectedValue)")
                case (nil, let actualValue?):
                    lines.append("+ \(childPath): \(actualValue)")
                case (nil, nil):
                    break
                }
            }
        case (.array(let expectedArray), .array(let actualArray)):
            for index in 0..<max(expectedArray.count, actualArray.count) {
                let childPath = "\(path)[\(index)]"
                if index >= actualArray.count {
                    lines.append("- \(childPath): \(expectedArray[index])")
                } else if index >= expectedArray.count {
                    lines.append("+ \(childPath): \(actualArray[index])")
                } else {
                    compare(expectedArray[index], actualArray[index], path: childPath, into: &lines)
                }
            }
        default:
            guard !sameScalar(expected, actual) else { return }
            lines.append("- \(path): \(expected)")
            lines.append("+ \(path): \(actual)")
        }
    }

    private static func sameScalar(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.int(let integer), .double(let double)), (.double(let double), .int(let integer)):
            return Double(integer) == double
        default: return lhs == rhs
        }
    }

    /// `.name` for identifier-like keys, `["odd key"]` otherwise.
    private static func member(_ key: String) -> String {
        let isIdentifier =
            !key.isEmpty && key.first?.isNumber == false
            && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return isIdentifier ? "." + key : "[\(key.debugDescription)]"
    }
}
