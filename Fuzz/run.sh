#!/usr/bin/env bash
# Builds the libFuzzer harness (address sanitizer on) and runs it.
#
#   Fuzz/run.sh [seconds] [target]      # defaults: 600 s, all targets
#
# target: all, envelope, lenient, headers, url or yaml. The corpus lives in
# .build/fuzz-corpus/<target> (seeded from Fuzz/Seeds on every run) and crashing inputs are
# written to Fuzz/Crashes/. Exits non-zero when libFuzzer found a crash or a broken property.
# FUZZ_ARGS adds libFuzzer options.
set -euo pipefail
cd "$(dirname "$0")"
FUZZ_DIR="$(pwd)"
ROOT="$(cd .. && pwd)"
SECONDS_TO_RUN="${1:-600}"
TARGET="${2:-all}"
case "$TARGET" in
    all | envelope | lenient | headers | url | yaml) ;;
    *) echo "usage: $0 [seconds] [all|envelope|lenient|headers|url|yaml]" >&2; exit 2 ;;
esac

# Two separate -sanitize flags would keep only the last one (swiftc 6.3), so fuzzer and address
# go in one -Xswiftc flag; --sanitize=fuzzer also stops SwiftPM from renaming the entry point
# (libFuzzer provides main). -enable-testing: the harness reaches CurlResponseHead, which is internal.
SCRATCH="$ROOT/.build/fuzz"
{ swift build --package-path "$FUZZ_DIR" --scratch-path "$SCRATCH" -c release --sanitize=fuzzer \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing 2>&1; } | { grep -v "Cannot export local symbol" || true; } >&2
BINARY="$(swift build --package-path "$FUZZ_DIR" --scratch-path "$SCRATCH" -c release --show-bin-path)/EndpointKitFuzz"

CORPUS="$ROOT/.build/fuzz-corpus/$TARGET"
CRASHES="$FUZZ_DIR/Crashes"
mkdir -p "$CORPUS" "$CRASHES"
if [[ "$TARGET" != all ]]; then export ENDPOINTKIT_FUZZ_TARGET="$TARGET"; fi

# The Swift runtime's backtracer would take over libFuzzer's crash handling (and hang under ASan).
export SWIFT_BACKTRACE=enable=no
# Leak checks are off: LeakSanitizer reports memory that swift-corelibs-foundation's DateFormatter
# never frees (CFCharacterSet in _CFCharacterSetInitWithCharactersInString), not EndpointKit's.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
# shellcheck disable=SC2086
"$BINARY" "$CORPUS" "$FUZZ_DIR/Seeds" -dict="$FUZZ_DIR/fuzz.dict" -max_total_time="$SECONDS_TO_RUN" \
    -max_len=4096 -timeout=10 -rss_limit_mb=4096 -detect_leaks=0 -print_final_stats=1 \
    -artifact_prefix="$CRASHES/" ${FUZZ_ARGS:-}
