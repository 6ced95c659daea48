#if os(Linux) && canImport(CCurlShim)
import CCurlShim

extension CurlTransfer {
    /// What the hop that just finished took, read from the easy handle at once (the handle goes
    /// back to the pool and the next transfer sets it up): one call into the shim, which makes a dozen
    /// `curl_easy_getinfo` calls, and no allocation for an IPv4 address.
    func metrics() -> TransferMetrics {
        var info = ek_curl_transfer_info()
        ek_curl_easy_transfer_info(easy, requestBody.hasBytes ? 1 : 0, &info)
        let isReused = info.new_connections < 0 ? nil : info.new_connections == 0
        // A reused connection had no lookup, connect or handshake in this exchange (the shim
        // reports none); plain http had no handshake (libcurl reports 0).
        return TransferMetrics(
            microseconds: info.name_lookup_us, connect: info.connect_us,
            handshake: info.tls_handshake_us > 0 ? info.tls_handshake_us : -1, firstByte: info.first_byte_us,
            total: info.total_us, requestBodyBytes: info.request_body_bytes,
            responseBodyBytes: info.response_body_bytes, isReusedConnection: isReused,
            httpVersion: Self.httpVersionCode(info.http_version), remoteAddress: info.remote_ip,
            remotePort: info.remote_port > 0 ? info.remote_port : -1, redirectCount: redirectCount)
    }

    /// The code ``TransferMetrics`` keeps for a `CURLINFO_HTTP_VERSION` value.
    private static func httpVersionCode(_ version: Int) -> Int8 {
        switch version {
        case 1: return 10
        case 2: return 11
        case 3: return 20
        case 30: return 30
        default: return 0
        }
    }

    /// The name of a `CURLINFO_HTTP_VERSION` value.
    static func httpVersionName(_ version: Int) -> String {
        switch version {
        case 1: return "HTTP/1.0"
        case 3: return "HTTP/2"
        case 30: return "HTTP/3"
        default: return "HTTP/1.1"
        }
    }

}
#endif
