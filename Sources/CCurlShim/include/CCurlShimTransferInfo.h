// What a finished libcurl transfer took, read in one call (see CurlTransfer+Metrics.swift).
#ifndef ENDPOINTKIT_CCURLSHIM_TRANSFER_INFO_H
#define ENDPOINTKIT_CCURLSHIM_TRANSFER_INFO_H

// Declared on Linux only; see CCurlShim.c.
#if defined(__linux__)

#include <stdint.h>

/// libcurl's timers, counters and connection facts for the last transfer of an easy handle.
/// Every field is -1 (or NULL) when libcurl does not report it.
typedef struct {
    /// CURLINFO_*_TIME_T, microseconds from the start of the transfer (the first three only for
    /// a new connection).
    int64_t name_lookup_us, connect_us, tls_handshake_us, first_byte_us, total_us;
    /// CURLINFO_SIZE_UPLOAD_T and CURLINFO_SIZE_DOWNLOAD_T: body bytes sent and received (as
    /// they crossed the connection, before decompression). CURLINFO_REQUEST_SIZE is not used: it
    /// counts a small POST body sent along with the head, so it cannot be told apart.
    int64_t request_body_bytes, response_body_bytes;
    /// CURLINFO_NUM_CONNECTS: 0 when the transfer reused a connection.
    long new_connections;
    /// CURLINFO_HTTP_VERSION (CURL_HTTP_VERSION_1_0 = 1, 1_1 = 2, 2 = 3, 3 = 30).
    long http_version;
    /// CURLINFO_PRIMARY_PORT.
    long remote_port;
    /// CURLINFO_PRIMARY_IP; owned by libcurl, valid until the handle is used again.
    const char *_Nullable remote_ip;
} ek_curl_transfer_info;

/// Fills `info` from `easy`'s last transfer: up to ten curl_easy_getinfo calls for one call from
/// Swift. Without `has_request_body` the request body count is 0 without asking.
void ek_curl_easy_transfer_info(void *_Nonnull easy, int has_request_body, ek_curl_transfer_info *_Nonnull info);

#endif // __linux__

#endif
