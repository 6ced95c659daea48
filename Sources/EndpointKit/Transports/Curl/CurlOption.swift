#if os(Linux) && canImport(CCurlShim)
import CCurlShim

/// The libcurl option and info numbers used here (from `curl.h`, stable across libcurl 7.x/8.x).
///
/// `CurlOptionNumberTests` checks each option against the loaded library's own table.
enum CurlOption {
    private static let long: Int32 = 0
    private static let pointer: Int32 = 10_000
    private static let function: Int32 = 20_000
    private static let offset: Int32 = 30_000
    private static let blob: Int32 = 40_000

    static let writeData = pointer + 1
    static let url = pointer + 2
    static let readData = pointer + 9
    static let errorBuffer = pointer + 10
    static let writeFunction = function + 11
    static let readFunction = function + 12
    static let headerData = pointer + 29
    static let customRequest = pointer + 36
    static let noProgress = long + 43
    static let noBody = long + 44
    static let upload = long + 46
    static let post = long + 47
    static let progressData = pointer + 57
    static let sslVerifyPeer = long + 64
    static let caInfo = pointer + 65
    static let headerFunction = function + 79
    static let httpGet = long + 80
    static let sslVerifyHost = long + 81
    static let httpVersion = long + 84
    static let caPath = pointer + 97
    static let noSignal = long + 99
    static let acceptEncoding = pointer + 102
    static let privateData = pointer + 103
    static let httpHeader = pointer + 23
    static let inFileSizeLarge = offset + 115
    static let maxFileSizeLarge = offset + 117
    static let postFieldSizeLarge = offset + 120
    static let timeoutMilliseconds = long + 155
    static let connectTimeoutMilliseconds = long + 156
    static let copyPostFields = pointer + 165
    static let protocols = long + 181
    static let redirectProtocols = long + 182
    static let progressFunction = function + 219
    static let pinnedPublicKey = pointer + 230
    static let pipeWait = long + 237
    static let caInfoBlob = blob + 309
    // Client certificates (CurlClientCertificate).
    static let keyPassword = pointer + 26
    static let sslCertType = pointer + 86
    static let sslKeyType = pointer + 88
    static let sslCertBlob = blob + 291
    static let sslKeyBlob = blob + 292

    /// The names libcurl knows these options by, for the number check.
    static let names: [(String, Int32)] = [
        ("WRITEDATA", writeData), ("URL", url), ("READDATA", readData), ("ERRORBUFFER", errorBuffer),
        ("WRITEFUNCTION", writeFunction), ("READFUNCTION", readFunction), ("HEADERDATA", headerData),
        ("CUSTOMREQUEST", customRequest), ("NOPROGRESS", noProgress), ("NOBODY", noBody), ("UPLOAD", upload),
        ("POST", post), ("XFERINFODATA", progressData), ("SSL_VERIFYPEER", sslVerifyPeer), ("CAINFO", caInfo),
        ("HEADERFUNCTION", headerFunction), ("HTTPGET", httpGet), ("SSL_VERIFYHOST", sslVerifyHost),
        ("HTTP_VERSION", httpVersion), ("CAPATH", caPath), ("NOSIGNAL", noSignal),
        ("ACCEPT_ENCODING", acceptEncoding), ("PRIVATE", privateData), ("HTTPHEADER", httpHeader),
        ("INFILESIZE_LARGE", inFileSizeLarge), ("MAXFILESIZE_LARGE", maxFileSizeLarge),
        ("POSTFIELDSIZE_LARGE", postFieldSizeLarge), ("TIMEOUT_MS", timeoutMilliseconds),
        ("CONNECTTIMEOUT_MS", connectTimeoutMilliseconds), ("COPYPOSTFIELDS", copyPostFields),
        ("PROTOCOLS", protocols), ("REDIR_PROTOCOLS", redirectProtocols), ("XFERINFOFUNCTION", progressFunction),
        ("PINNEDPUBLICKEY", pinnedPublicKey), ("PIPEWAIT", pipeWait), ("CAINFO_BLOB", caInfoBlob),
        ("KEYPASSWD", keyPassword), ("SSLCERTTYPE", sslCertType), ("SSLKEYTYPE", sslKeyType),
        ("SSLCERT_BLOB", sslCertBlob), ("SSLKEY_BLOB", sslKeyBlob),
    ]

    /// The options whose number differs from the loaded libcurl's own table, or `nil` when libcurl
    /// is older than 7.73 and has no table.
    static func mismatchedNumbers() -> [String]? {
        guard ek_curl_option_id("URL") != -1 else { return nil }
        return names.compactMap { name, number in
            let actual = ek_curl_option_id(name)
            return actual == number ? nil : "\(name): \(number), libcurl says \(actual)"
        }
    }

    /// `CURLINFO_*` numbers.
    enum Info {
        static let httpVersion: Int32 = 0x20_0000 + 46
        /// `CURLINFO_SIZE_UPLOAD_T`, `CURLINFO_SIZE_DOWNLOAD_T`: body bytes sent and received.
        static let sizeUpload: Int32 = 0x60_0000 + 7
        static let sizeDownload: Int32 = 0x60_0000 + 8
    }

    /// Values of some options.
    enum Value {
        static let protocolsHTTPAndHTTPS = 1 | 2
        /// `CURL_HTTP_VERSION_2TLS`: HTTP/2 over TLS when the server offers it, HTTP/1.1 otherwise.
        static let http2OverTLS = 4
    }
}
#endif
