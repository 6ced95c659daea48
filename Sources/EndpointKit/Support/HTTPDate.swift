import Foundation

/// HTTP dates (RFC 9110 §5.6.7), as in `Date`, `Expires`, `Last-Modified` and `Retry-After`.
enum HTTPDate {
    /// The three formats a recipient must accept: IMF-fixdate, then the obsolete RFC 850 and
    /// asctime forms.
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
    ]

    /// The date, or `nil` when the value is not an HTTP date.
    static func parse(_ value: String?) -> Date? {
        guard let value else { return nil }
        let text = value.trimmingCharacters(in: .whitespaces)
        // HTTP dates are short printable ASCII. Checked first because swift-corelibs-foundation's
        // DateFormatter traps ("Incorrect range") on some non-ASCII text, and the value comes
        // from the server.
        guard text.utf8.count <= 64, text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in formats {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
