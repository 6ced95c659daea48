#!/usr/bin/env bash
# Builds path-trace with function-entry coverage callbacks in every Swift module (the library
# included) and runs it: bash Tools/PathTrace/path-trace.sh [--scenario plain|cache-retry] [--calls]
# Swift accepts -sanitize-coverage only with a sanitizer, hence -sanitize=address. A debug build,
# so that nothing is inlined or specialized away. The build goes to Tools/PathTrace/.build.
set -euo pipefail
cd "$(dirname "$0")"
FLAGS=(-c debug -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=func,trace-pc-guard)
# The gold linker warns once per ASan runtime symbol it cannot export; those lines are dropped.
# SwiftPM does not notice files added to or removed from a path dependency: plan the build again.
rm -f .build/debug.yaml
swift build "${FLAGS[@]}" --product path-trace 2>&1 | { grep -v "Cannot export local symbol" || true; } >&2
BIN="$(swift build "${FLAGS[@]}" --show-bin-path)/path-trace"
# Leak checking is off: the recording, the servers and the clients are not torn down at exit.
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" exec "$BIN" "$@"
