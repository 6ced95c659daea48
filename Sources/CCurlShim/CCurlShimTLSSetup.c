// See include/CCurlShimTLSSetup.h.
// Linux only, like the target's one user (CurlTransport, `#if os(Linux)`): Xcode builds this target
// for Apple platforms too (swift-package-manager#6554), where it compiles to nothing.
#if defined(__linux__)
#define _GNU_SOURCE // accept4
#include "CCurlShim.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

// Option numbers from curl.h, stable since libcurl 7.x.
#define EK_CURLOPT_URL 10002
#define EK_CURLOPT_SSL_VERIFYPEER 64
#define EK_CURLOPT_NOSIGNAL 99
#define EK_CURLOPT_CONNECT_ONLY 141
#define EK_CURLOPT_TIMEOUT_MS 155
#define EK_CURLOPT_NOPROXY 10177
#define EK_CURLE_FAILED_INIT 2

// A listening socket on 127.0.0.1 and an ephemeral port; -1 when none can be made.
static int listen_on_loopback(int *port) {
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (listener < 0) return -1;
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 1) != 0
        || getsockname(listener, (struct sockaddr *)&address, &length) != 0) {
        close(listener);
        return -1;
    }
    *port = ntohs(address.sin_port);
    return listener;
}

// Whether `fd` has bytes to read (the ClientHello) or was closed.
static int is_readable(int fd) {
    struct pollfd readable = {fd, POLLIN, 0};
    return poll(&readable, 1, 0) > 0;
}

// The transfer connects to our own listener, which is never a TLS server: once the ClientHello
// arrives (libcurl loads the certificate and key before sending it) the accepted connection is
// closed unanswered. libcurl's CURLOPT_OPENSOCKETFUNCTION with CURL_SOCKOPT_ALREADY_CONNECTED
// would avoid the listener, but 7.88 calls connect() on such sockets anyway (curl #10626).
int ek_curl_easy_run_tls_setup(void *easy) {
    int port = 0;
    int listener = listen_on_loopback(&port);
    if (listener < 0) return -1;
    char url[40];
    snprintf(url, sizeof url, "https://127.0.0.1:%d/", port);
    int code = ek_curl_easy_setopt_pointer(easy, EK_CURLOPT_URL, url);
    if (code == 0) code = ek_curl_easy_setopt_pointer(easy, EK_CURLOPT_NOPROXY, "*");
    if (code == 0) code = ek_curl_easy_setopt_long(easy, EK_CURLOPT_NOSIGNAL, 1);
    if (code == 0) code = ek_curl_easy_setopt_long(easy, EK_CURLOPT_CONNECT_ONLY, 1);
    if (code == 0) code = ek_curl_easy_setopt_long(easy, EK_CURLOPT_SSL_VERIFYPEER, 0);
    if (code == 0) code = ek_curl_easy_setopt_long(easy, EK_CURLOPT_TIMEOUT_MS, 5000);
    void *multi = code == 0 ? ek_curl_multi_init() : NULL;
    if (multi != NULL) {
        code = ek_curl_multi_add_handle(multi, easy) == 0 ? -1 : EK_CURLE_FAILED_INIT;
        int running = 1;
        int peer = -1;
        while (code == -1 && running > 0) {
            if (ek_curl_multi_perform(multi, &running) != 0) {
                code = EK_CURLE_FAILED_INIT;
                break;
            }
            if (peer == -1) peer = accept4(listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
            if (peer >= 0 && is_readable(peer)) {
                close(peer);
                peer = -2; // closed: no second connection is accepted
            }
            if (running > 0) ek_curl_multi_poll(multi, 10);
        }
        if (peer >= 0) close(peer);
        void *done = NULL;
        int result = 0;
        if (code == -1) code = ek_curl_multi_next_done(multi, &done, &result) ? result : EK_CURLE_FAILED_INIT;
        ek_curl_multi_remove_handle(multi, easy);
        ek_curl_multi_cleanup(multi);
    } else if (code == 0) {
        code = EK_CURLE_FAILED_INIT;
    }
    close(listener);
    return code;
}

#else
// Something to compile: an empty file is not a valid C translation unit.
typedef int ek_curl_shim_linux_only;
#endif
