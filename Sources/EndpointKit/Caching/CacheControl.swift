import Foundation

/// The parts of `Cache-Control` (RFC 9111 §5.2) a client cache acts on.
struct CacheControl: Hashable {
    var maxAge: TimeInterval?
    var sharedMaxAge: TimeInterval?
    var noStore = false
    var noCache = false
    var isPrivate = false
    var mustRevalidate = false

    init(_ value: String?) {
        guard let value else { return }
        for directive in value.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
            guard let name = parts.first?.lowercased() else { continue }
            let argument = parts.count > 1 ? TimeInterval(parts[1]) : nil
            switch name {
            case "max-age": maxAge = argument.map { max(0, $0) }
            case "s-maxage": sharedMaxAge = argument.map { max(0, $0) }
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "private": isPrivate = true
            case "must-revalidate", "proxy-revalidate": mustRevalidate = true
            default: continue
            }
        }
    }

    /// An HTTP date (`Expires`, `Date`, `Last-Modified`), or `nil`; `Expires: 0` and other invalid
    /// dates mean "already expired" to the caller.
    static func date(_ value: String?) -> Date? {
        guard let value else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: value.trimmingCharacters(in: .whitespaces)) { return date }
        }
        return nil
    }
}
