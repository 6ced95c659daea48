// Run-time binding to the system libcurl (libcurl.so.4). See include/CCurlShim.h for why.
// Linux only, like the target's one user (CurlTransport, `#if os(Linux)`): Xcode builds this target
// for Apple platforms too (swift-package-manager#6554), where it compiles to nothing.
#if defined(__linux__)
#include "CCurlShim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>

// Just enough of libcurl's ABI, stable since libcurl 7.x.
typedef struct {
    int age;
    const char *version;
    unsigned int version_num;
    const char *host;
    int features;
    const char *ssl_version;
} curl_version_prefix;

typedef struct {
    int msg;
    void *easy_handle;
    union {
        void *whatever;
        int result;
    } data;
} curl_message;

typedef struct {
    const char *name;
    int id;
    int type;
    unsigned int flags;
} curl_easy_option_info;

struct curl_blob_value {
    const void *data;
    size_t len;
    unsigned int flags;
};

#define EK_CURL_GLOBAL_DEFAULT 3L
#define EK_CURLVERSION_FIRST 0
#define EK_CURLMSG_DONE 1
#define EK_CURL_BLOB_COPY 1U
#define EK_CURLE_FAILED_INIT 2

static struct {
    int (*global_init)(long);
    const curl_version_prefix *(*version_info)(int);
    const curl_easy_option_info *(*option_by_name)(const char *);
    void *(*easy_init)(void);
    void (*easy_cleanup)(void *);
    void (*easy_reset)(void *);
    int (*easy_setopt)(void *, int, ...);
    int (*easy_getinfo)(void *, int, ...);
    const char *(*easy_strerror)(int);
    int (*easy_pause)(void *, int);
    void *(*multi_init)(void);
    int (*multi_cleanup)(void *);
    int (*multi_setopt)(void *, int, ...);
    int (*multi_add_handle)(void *, void *);
    int (*multi_remove_handle)(void *, void *);
    int (*multi_perform)(void *, int *);
    int (*multi_poll)(void *, void *, unsigned int, int, int *);
    int (*multi_wakeup)(void *);
    curl_message *(*multi_info_read)(void *, int *);
    void *(*slist_append)(void *, const char *);
    void (*slist_free_all)(void *);
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error = "libcurl was not loaded";
static const curl_version_prefix *version;

#define BIND(field, symbol)                                                                                            \
    do {                                                                                                               \
        *(void **)(&api.field) = dlsym(handle, symbol);                                                                \
        if (api.field == NULL) {                                                                                       \
            load_error = "libcurl.so.4 lacks " symbol " (EndpointKit needs libcurl 7.68 or later)";                  \
            return;                                                                                                    \
        }                                                                                                              \
    } while (0)

static void load(void) {
    // RTLD_NOLOAD first: FoundationNetworking may already have loaded the same library.
    void *handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (handle == NULL) handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        load_error = "libcurl.so.4 could not be loaded (install the system libcurl, e.g. libcurl4)";
        return;
    }
    BIND(global_init, "curl_global_init");
    BIND(version_info, "curl_version_info");
    BIND(easy_init, "curl_easy_init");
    BIND(easy_cleanup, "curl_easy_cleanup");
    BIND(easy_reset, "curl_easy_reset");
    BIND(easy_setopt, "curl_easy_setopt");
    BIND(easy_getinfo, "curl_easy_getinfo");
    BIND(easy_strerror, "curl_easy_strerror");
    BIND(easy_pause, "curl_easy_pause");
    BIND(multi_init, "curl_multi_init");
    BIND(multi_cleanup, "curl_multi_cleanup");
    BIND(multi_setopt, "curl_multi_setopt");
    BIND(multi_add_handle, "curl_multi_add_handle");
    BIND(multi_remove_handle, "curl_multi_remove_handle");
    BIND(multi_perform, "curl_multi_perform");
    BIND(multi_poll, "curl_multi_poll");
    BIND(multi_wakeup, "curl_multi_wakeup");
    BIND(multi_info_read, "curl_multi_info_read");
    BIND(slist_append, "curl_slist_append");
    BIND(slist_free_all, "curl_slist_free_all");
    // Optional (7.73+): only used to check option numbers.
    *(void **)(&api.option_by_name) = dlsym(handle, "curl_easy_option_by_name");
    // Never paired with curl_global_cleanup: FoundationNetworking shares this library.
    if (api.global_init(EK_CURL_GLOBAL_DEFAULT) != 0) {
        load_error = "curl_global_init failed";
        return;
    }
    version = api.version_info(EK_CURLVERSION_FIRST);
    if (version == NULL) {
        load_error = "curl_version_info failed";
        return;
    }
    load_error = NULL;
}

const char *ek_curl_load(void) {
    pthread_once(&load_once, load);
    return load_error;
}

void ek_curl_block_sigpipe_in_this_thread(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

unsigned int ek_curl_version_number(void) { return version ? version->version_num : 0; }
const char *ek_curl_version_text(void) { return version ? version->version : NULL; }
int ek_curl_features(void) { return version ? version->features : 0; }
const char *ek_curl_ssl_version(void) { return version ? version->ssl_version : NULL; }

int ek_curl_option_id(const char *name) {
    if (load_error != NULL || api.option_by_name == NULL) return -1;
    const curl_easy_option_info *info = api.option_by_name(name);
    return info ? info->id : -1;
}

void *ek_curl_easy_init(void) { return load_error ? NULL : api.easy_init(); }
void ek_curl_easy_cleanup(void *easy) { api.easy_cleanup(easy); }
void ek_curl_easy_reset(void *easy) { api.easy_reset(easy); }
int ek_curl_easy_setopt_long(void *easy, int option, long value) { return api.easy_setopt(easy, option, value); }
int ek_curl_easy_setopt_off(void *easy, int option, int64_t value) { return api.easy_setopt(easy, option, value); }
int ek_curl_easy_setopt_pointer(void *easy, int option, const void *value) {
    return api.easy_setopt(easy, option, value);
}
int ek_curl_easy_setopt_data_callback(void *easy, int option, ek_curl_data_callback callback) {
    return api.easy_setopt(easy, option, callback);
}
int ek_curl_easy_setopt_progress_callback(void *easy, int option, ek_curl_progress_callback callback) {
    return api.easy_setopt(easy, option, callback);
}
int ek_curl_easy_setopt_blob(void *easy, int option, const void *bytes, size_t length) {
    struct curl_blob_value blob = {bytes, length, EK_CURL_BLOB_COPY};
    return api.easy_setopt(easy, option, &blob);
}
int ek_curl_easy_getinfo_long(void *easy, int info, long *value) { return api.easy_getinfo(easy, info, value); }
int ek_curl_easy_getinfo_off(void *easy, int info, int64_t *value) { return api.easy_getinfo(easy, info, value); }
int ek_curl_easy_getinfo_pointer(void *easy, int info, void **value) {
    return api.easy_getinfo(easy, info, value);
}
int ek_curl_easy_pause(void *easy, int bitmask) { return api.easy_pause(easy, bitmask); }
const char *ek_curl_easy_strerror(int code) {
    return load_error ? "libcurl is not loaded" : api.easy_strerror(code);
}

void *ek_curl_multi_init(void) { return load_error ? NULL : api.multi_init(); }
int ek_curl_multi_cleanup(void *multi) { return api.multi_cleanup(multi); }
int ek_curl_multi_setopt_long(void *multi, int option, long value) { return api.multi_setopt(multi, option, value); }
int ek_curl_multi_add_handle(void *multi, void *easy) { return api.multi_add_handle(multi, easy); }
int ek_curl_multi_remove_handle(void *multi, void *easy) { return api.multi_remove_handle(multi, easy); }
int ek_curl_multi_perform(void *multi, int *running) { return api.multi_perform(multi, running); }
int ek_curl_multi_poll(void *multi, int timeout_ms) { return api.multi_poll(multi, NULL, 0, timeout_ms, NULL); }
int ek_curl_multi_wakeup(void *multi) { return api.multi_wakeup(multi); }

int ek_curl_multi_next_done(void *multi, void **easy, int *result) {
    int queued = 0;
    curl_message *message;
    while ((message = api.multi_info_read(multi, &queued)) != NULL) {
        if (message->msg != EK_CURLMSG_DONE) continue;
        *easy = message->easy_handle;
        *result = message->data.result;
        return 1;
    }
    return 0;
}

void *ek_curl_slist_append(void *list, const char *text) { return api.slist_append(list, text); }
void ek_curl_slist_free_all(void *list) { api.slist_free_all(list); }

#else
// Something to compile: an empty file is not a valid C translation unit.
typedef int ek_curl_shim_linux_only;
#endif
