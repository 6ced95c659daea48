// A dry run of libcurl's TLS set-up, so that client certificates are checked when a transport is
// created rather than at the first request (see CurlClientCertificate.swift).
#ifndef ENDPOINTKIT_CCURLSHIM_TLS_SETUP_H
#define ENDPOINTKIT_CCURLSHIM_TLS_SETUP_H

// Declared on Linux only; see CCurlShim.c.
#if defined(__linux__)

/// Starts an https transfer on `easy` (whose TLS options, such as a client certificate and key,
/// are already set) to a listener of its own on 127.0.0.1, which closes the connection unanswered
/// once the ClientHello arrives: libcurl sets up TLS, loading the certificate and key, and the
/// handshake then fails. Nothing leaves the machine (proxies are bypassed).
///
/// Returns the transfer's CURLcode: 58 (CURLE_SSL_CERTPROBLEM) when the certificate or key could
/// not be used (unreadable, wrong password, key not matching the certificate), with libcurl's
/// reason in the handle's error buffer if one is set; another failure (the handshake's) when they
/// were loaded; -1 when no loopback listener could be made.
int ek_curl_easy_run_tls_setup(void *_Nonnull easy);

#endif // __linux__

#endif
