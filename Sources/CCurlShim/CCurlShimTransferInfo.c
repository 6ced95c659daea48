// See include/CCurlShimTransferInfo.h.
// Linux only, like the target's one user (CurlTransport, `#if os(Linux)`): Xcode builds this target
// for Apple platforms too (swift-package-manager#6554), where it compiles to nothing.
#if defined(__linux__)
#include "CCurlShim.h"

// CURLINFO types (curl.h): the number's high bits say what the value is.
#define EK_INFO_STRING 0x100000
#define EK_INFO_LONG 0x200000
#define EK_INFO_OFF_T 0x600000

static int64_t off_info(void *easy, int info) {
    int64_t value = -1;
    return ek_curl_easy_getinfo_off(easy, EK_INFO_OFF_T + info, &value) == 0 ? value : -1;
}

static long long_info(void *easy, int info) {
    long value = -1;
    return ek_curl_easy_getinfo_long(easy, EK_INFO_LONG + info, &value) == 0 ? value : -1;
}

void ek_curl_easy_transfer_info(void *easy, int has_request_body, ek_curl_transfer_info *info) {
    info->new_connections = long_info(easy, 26); // CURLINFO_NUM_CONNECTS
    // A reused connection had no lookup, connect or handshake: three calls saved on most requests.
    int is_new = info->new_connections != 0;
    info->name_lookup_us = is_new ? off_info(easy, 51) : -1;   // CURLINFO_NAMELOOKUP_TIME_T
    info->connect_us = is_new ? off_info(easy, 52) : -1;       // CURLINFO_CONNECT_TIME_T
    info->tls_handshake_us = is_new ? off_info(easy, 56) : -1; // CURLINFO_APPCONNECT_TIME_T
    info->first_byte_us = off_info(easy, 54);                  // CURLINFO_STARTTRANSFER_TIME_T
    info->total_us = off_info(easy, 50);                       // CURLINFO_TOTAL_TIME_T
    info->request_body_bytes = has_request_body ? off_info(easy, 7) : 0; // CURLINFO_SIZE_UPLOAD_T
    info->response_body_bytes = off_info(easy, 8);             // CURLINFO_SIZE_DOWNLOAD_T
    info->http_version = long_info(easy, 46);                  // CURLINFO_HTTP_VERSION
    info->remote_port = long_info(easy, 40);                   // CURLINFO_PRIMARY_PORT
    void *ip = NULL;
    info->remote_ip = ek_curl_easy_getinfo_pointer(easy, EK_INFO_STRING + 32, &ip) == 0 ? ip : NULL; // PRIMARY_IP
}

#else
// Something to compile: an empty file is not a valid C translation unit.
typedef int ek_curl_shim_linux_only;
#endif
