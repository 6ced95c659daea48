// See include/CCurlShimTLSSetup.h.
#include "CCurlShim.h"

#include <sys/socket.h>
#include <unistd.h>

// Option numbers from curl.h, stable since libcurl 7.x.
#define EK_CURLOPT_URL 10002
#define EK_CURLOPT_SSL_VERIFYPEER 64
#define EK_CURLOPT_NOSIGNAL 99
#define EK_CURLOPT_CONNECT_ONLY 141
#define EK_CURLOPT_SOCKOPTFUNCTION 20148
#define EK_CURLOPT_TIMEOUT_MS 155
#define EK_CURLOPT_OPENSOCKETFUNCTION 20163
#define EK_CURLOPT_OPENSOCKETDATA 10164
#define EK_CURL_SOCKOPT_ALREADY_CONNECTED 2
#define EK_CURL_SOCKET_BAD (-1)

typedef struct {
    int fd;
    int handed; // whether libcurl took the socket (it then closes it itself)
} paired_socket;

// CURLOPT_OPENSOCKETFUNCTION: libcurl's only socket is our end of the pair.
static int open_paired(void *data, int purpose, void *address) {
    (void)purpose;
    (void)address;
    paired_socket *paired = data;
    if (paired->handed) return EK_CURL_SOCKET_BAD;
    paired->handed = 1;
    return paired->fd;
}

// CURLOPT_SOCKOPTFUNCTION: the socket needs no connect().
static int already_connected(void *data, int fd, int purpose) {
    (void)data;
    (void)fd;
    (void)purpose;
    return EK_CURL_SOCKOPT_ALREADY_CONNECTED;
}

// libcurl reads callbacks as function pointers from its variadic argument list; POSIX gives
// function and object pointers one representation (dlsym relies on it), so the pointer wrapper
// carries them.
static int set_function(void *easy, int option, void *function) {
    return ek_curl_easy_setopt_pointer(easy, option, function);
}

int ek_curl_easy_run_tls_setup(void *easy) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) return -1;
    close(pair[1]); // the handshake fails at its first read or write
    paired_socket paired = {pair[0], 0};
    int code = ek_curl_easy_setopt_pointer(easy, EK_CURLOPT_URL, "https://127.0.0.1/");
    if (code == 0) code = ek_curl_easy_setopt_long(easy, EK_CURLOPT_NOSIGNAL, 1);
    if (code == 0) code = ek_curl_easy_setopt_long(easy, EK_CURLOPT_CONNECT_ONLY, 1);
    if (code == 0) code = ek_curl_easy_setopt_long(easy, EK_CURLOPT_SSL_VERIFYPEER, 0);
    if (code == 0) code = ek_curl_easy_setopt_long(easy, EK_CURLOPT_TIMEOUT_MS, 5000);
    if (code == 0) code = set_function(easy, EK_CURLOPT_OPENSOCKETFUNCTION, (void *)open_paired);
    if (code == 0) code = ek_curl_easy_setopt_pointer(easy, EK_CURLOPT_OPENSOCKETDATA, &paired);
    if (code == 0) code = set_function(easy, EK_CURLOPT_SOCKOPTFUNCTION, (void *)already_connected);
    void *multi = code == 0 ? ek_curl_multi_init() : NULL;
    if (multi != NULL) {
        code = ek_curl_multi_add_handle(multi, easy) == 0 ? -1 : 2; // CURLE_FAILED_INIT
        int running = 1;
        while (code == -1 && running > 0) {
            if (ek_curl_multi_perform(multi, &running) != 0) code = 2;
            else if (running > 0) ek_curl_multi_poll(multi, 100);
        }
        void *done = NULL;
        int result = 0;
        if (code == -1) code = ek_curl_multi_next_done(multi, &done, &result) ? result : 2;
        ek_curl_multi_remove_handle(multi, easy);
        ek_curl_multi_cleanup(multi);
    } else if (code == 0) {
        code = 2;
    }
    if (!paired.handed) close(pair[0]);
    return code;
}
