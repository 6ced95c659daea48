#if os(Linux) && canImport(CCurlShim)
import CCurlShim

/// A libcurl header list (`curl_slist`) made once and shared by every transfer that sends exactly
/// these lines; freed with the last reference. libcurl only reads a list while it sends.
final class CurlHeaderList: @unchecked Sendable {
    /// The list, `nil` when it has no line.
    let pointer: UnsafeMutableRawPointer?

    /// Makes the list of `lines`, in order (each a whole `Name: value` line, already checked).
    init(_ lines: [String]) {
        var list: UnsafeMutableRawPointer?
        for line in lines { list = ek_curl_slist_append(list, line) }
        pointer = list
    }

    deinit { ek_curl_slist_free_all(pointer) }
}
#endif
