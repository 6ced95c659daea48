#if os(Linux) && canImport(CCurlShim)
import CCurlShim

/// Sets options until the first one fails, remembering that failure.
struct CurlOptionSetter {
    let easy: UnsafeMutableRawPointer
    var failure: Int32 = 0

    mutating func set(_ option: Int32, _ value: Int) {
        if failure == 0 { failure = ek_curl_easy_setopt_long(easy, option, value) }
    }

    mutating func set(_ option: Int32, _ value: Int64) {
        if failure == 0 { failure = ek_curl_easy_setopt_off(easy, option, value) }
    }

    /// libcurl copies string options. `withCString` lends a native string's own bytes, where
    /// passing the `String` as the argument would copy them into a new array first.
    mutating func set(_ option: Int32, _ value: String) {
        if failure == 0 { failure = value.withCString { ek_curl_easy_setopt_pointer(easy, option, $0) } }
    }

    mutating func set(_ option: Int32, _ value: UnsafeRawPointer?) {
        if failure == 0 { failure = ek_curl_easy_setopt_pointer(easy, option, value) }
    }

    mutating func setCallback(_ option: Int32, _ callback: ek_curl_data_callback) {
        if failure == 0 { failure = ek_curl_easy_setopt_data_callback(easy, option, callback) }
    }

    mutating func setProgressCallback(_ callback: ek_curl_progress_callback) {
        if failure == 0 {
            failure = ek_curl_easy_setopt_progress_callback(easy, CurlOption.progressFunction, callback)
        }
    }
}
#endif
