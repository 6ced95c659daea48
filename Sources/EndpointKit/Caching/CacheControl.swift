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
}
