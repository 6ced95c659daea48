/*
 * What libcurl's work for custom request header lines costs, in instructions per request.
 *
 * Sends N sequential GETs on one easy handle (connection reused) with a chosen set of header
 * lines or options. Run it under callgrind with two request counts and divide the difference,
 * as the bench's --instructions mode does (see Docs/Performance.md, "Instructions per request"):
 *
 *   gcc -O2 curl-header-cost.c -o curl-header-cost /usr/lib/x86_64-linux-gnu/libcurl.so.4
 *   valgrind --tool=callgrind --callgrind-out-file=a.out ./curl-header-cost URL 200 MODE
 *   valgrind --tool=callgrind --callgrind-out-file=b.out ./curl-header-cost URL 600 MODE
 *   # (total of b.out - total of a.out) / 400
 *
 * MODE is a sum of: 1 the Accept-Encoding line EndpointKit sends, 2 a User-Agent line like
 * EndpointKit's, 4 an Accept-Language line, 8 CURLOPT_ACCEPT_ENCODING "" (libcurl's own line),
 * 16 CURLOPT_USERAGENT (libcurl's own line). The URL should answer quickly (nginx on loopback).
 * Declares the few libcurl functions it calls, so it needs no development headers.
 */
#include <stdlib.h>

typedef void CURL;
struct curl_slist;
CURL *curl_easy_init(void);
int curl_easy_setopt(CURL *handle, int option, ...);
int curl_easy_perform(CURL *handle);
struct curl_slist *curl_slist_append(struct curl_slist *list, const char *line);

enum { OPT_URL = 10002, OPT_HTTPHEADER = 10023, OPT_ACCEPT_ENCODING = 10102, OPT_USERAGENT = 10018,
       OPT_NOSIGNAL = 99, OPT_WRITEFUNCTION = 20011 };

static size_t discard(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

int main(int argc, char **argv) {
    if (argc < 4) return 2;
    const char *url = argv[1];
    int requests = atoi(argv[2]);
    int mode = atoi(argv[3]);
    CURL *easy = curl_easy_init();
    if (!easy) return 1;
    struct curl_slist *lines = NULL;
    if (mode & 1) lines = curl_slist_append(lines, "Accept-Encoding: deflate, gzip, br, zstd");
    if (mode & 2) lines = curl_slist_append(lines, "User-Agent: endpointkit-bench EndpointKit libcurl/7.88.1");
    if (mode & 4) lines = curl_slist_append(lines, "Accept-Language: en-US");
    if (lines) curl_easy_setopt(easy, OPT_HTTPHEADER, lines);
    if (mode & 8) curl_easy_setopt(easy, OPT_ACCEPT_ENCODING, "");
    if (mode & 16) curl_easy_setopt(easy, OPT_USERAGENT, "endpointkit-bench EndpointKit libcurl/7.88.1");
    curl_easy_setopt(easy, OPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, OPT_WRITEFUNCTION, discard);
    for (int i = 0; i < requests; i++) {
        curl_easy_setopt(easy, OPT_URL, url);
        if (curl_easy_perform(easy) != 0) return 1;
    }
    return 0;
}
