// The part of libcurl's API that EndpointKit's CurlTransport uses, declared here so that building
// needs no curl headers. libcurl.so.4 is loaded at run time (dlopen), so nothing links against it.
//
// Every function is a thin, non-variadic wrapper: curl_easy_setopt and curl_easy_getinfo are
// variadic and must not be called from Swift through a cast pointer.
#ifndef ENDPOINTKIT_CCURLSHIM_H
#define ENDPOINTKIT_CCURLSHIM_H

// Declared on Linux only; see CCurlShim.c.
#if defined(__linux__)

#include <stddef.h>
#include <stdint.h>

#include "CCurlShimTLSSetup.h"
#include "CCurlShimTransferInfo.h"

/// Loads libcurl.so.4 and calls curl_global_init, once per process (pthread_once).
/// Returns 0 on success; otherwise a static message saying what failed.
const char *_Nullable ek_curl_load(void);

/// Blocks SIGPIPE in the calling thread only (the transport's event-loop thread), so a write to a
/// closed socket returns EPIPE instead of killing the process; the process's handlers are untouched.
void ek_curl_block_sigpipe_in_this_thread(void);

/// libcurl's version as 0xXXYYZZ, its version text, feature bits and TLS library name.
/// Only valid after ek_curl_load succeeded.
unsigned int ek_curl_version_number(void);
const char *_Nullable ek_curl_version_text(void);
int ek_curl_features(void);
const char *_Nullable ek_curl_ssl_version(void);

/// The option number libcurl has for `name` (e.g. "URL"), or -1 if unknown or libcurl is older
/// than 7.73. Used by the tests to check the numbers EndpointKit hard-codes.
int ek_curl_option_id(const char *_Nonnull name);

typedef size_t (*ek_curl_data_callback)(char *_Nullable data, size_t size, size_t count, void *_Nullable context);
typedef int (*ek_curl_progress_callback)(void *_Nullable context, int64_t download_total, int64_t download_now,
                                         int64_t upload_total, int64_t upload_now);

void *_Nullable ek_curl_easy_init(void);
void ek_curl_easy_cleanup(void *_Nonnull easy);
void ek_curl_easy_reset(void *_Nonnull easy);
int ek_curl_easy_setopt_long(void *_Nonnull easy, int option, long value);
int ek_curl_easy_setopt_off(void *_Nonnull easy, int option, int64_t value);
int ek_curl_easy_setopt_pointer(void *_Nonnull easy, int option, const void *_Nullable value);
int ek_curl_easy_setopt_data_callback(void *_Nonnull easy, int option, ek_curl_data_callback _Nullable callback);
int ek_curl_easy_setopt_progress_callback(void *_Nonnull easy, int option,
                                          ek_curl_progress_callback _Nullable callback);
/// Sets a blob option (e.g. CURLOPT_CAINFO_BLOB); libcurl copies the bytes.
int ek_curl_easy_setopt_blob(void *_Nonnull easy, int option, const void *_Nonnull bytes, size_t length);
int ek_curl_easy_getinfo_long(void *_Nonnull easy, int info, long *_Nonnull value);
int ek_curl_easy_getinfo_off(void *_Nonnull easy, int info, int64_t *_Nonnull value);
int ek_curl_easy_getinfo_pointer(void *_Nonnull easy, int info, void *_Nullable *_Nonnull value);
const char *_Nonnull ek_curl_easy_strerror(int code);
/// curl_easy_pause: `bitmask` 0 resumes (CURLPAUSE_CONT). Call it on the thread driving the transfer.
int ek_curl_easy_pause(void *_Nonnull easy, int bitmask);

void *_Nullable ek_curl_multi_init(void);
int ek_curl_multi_cleanup(void *_Nonnull multi);
int ek_curl_multi_setopt_long(void *_Nonnull multi, int option, long value);
int ek_curl_multi_add_handle(void *_Nonnull multi, void *_Nonnull easy);
int ek_curl_multi_remove_handle(void *_Nonnull multi, void *_Nonnull easy);
int ek_curl_multi_perform(void *_Nonnull multi, int *_Nonnull running);
int ek_curl_multi_poll(void *_Nonnull multi, int timeout_ms);
int ek_curl_multi_wakeup(void *_Nonnull multi);
/// Reads the next finished transfer; returns 0 when there is none, 1 when `easy`/`result` are set.
int ek_curl_multi_next_done(void *_Nonnull multi, void *_Nullable *_Nonnull easy, int *_Nonnull result);

void *_Nullable ek_curl_slist_append(void *_Nullable list, const char *_Nonnull text);
void ek_curl_slist_free_all(void *_Nullable list);

#endif // __linux__

#endif
