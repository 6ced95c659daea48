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
            let argument = parts.count > 1 ? Self.deltaSeconds(parts[1]) : nil
            switch name {
            case "max-age": maxAge = argument
            case "s-maxage": sharedMaxAge = argument
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "private": isPrivate = true
            case "must-revalidate", "proxy-revalidate": mustRevalidate = true
            default: continue
            }
        }
    }

    /// A delta-seconds value (`max-age`, `Age`) between 0 and 2^31, the cap RFC 9111 §1.2.2 gives
    /// for larger values; `nil` when it is not a number. `1e400` or `inf` would otherwise make a
    /// response fresh forever, or its freshness NaN.
    static func deltaSeconds(_ text: String) -> TimeInterval? {
        guard let value = TimeInterval(text) else { return nil }
        return value.isNaN ? 0 : min(max(0, value), 2_147_483_648)
    }
}
