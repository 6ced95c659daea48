#!/bin/sh
# Selects the installed Xcode (not a beta) with the newest Swift, which must be 6.2 or later, for
# the rest of the GitHub Actions job (DEVELOPER_DIR in GITHUB_ENV); fails, naming what it found,
# otherwise. XCODE_APPLICATIONS overrides where Xcodes are looked for (/Applications).
set -eu
best=""
best_number=0
found=""
for app in "${XCODE_APPLICATIONS:-/Applications}"/Xcode*.app; do
    case "$app" in *[Bb]eta*) continue ;; esac
    swift="$app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/bin/swift"
    [ -x "$swift" ] || continue
    # "Apple Swift version 6.2.1 (swiftlang-...)" -> "6 2 1"; a missing patch is 0.
    version="$("$swift" --version 2>/dev/null \
        | sed -nE 's/.*Swift version ([0-9]+)\.([0-9]+)(\.([0-9]+))?.*/\1 \2 \4/p' | head -n 1)"
    [ -n "$version" ] || continue
    set -- $version
    number=$(($1 * 10000 + $2 * 100 + ${3:-0}))
    found="$found $app=$1.$2.${3:-0}"
    if [ "$number" -ge 60200 ] && [ "$number" -gt "$best_number" ]; then
        best="$app"
        best_number=$number
    fi
done
if [ -z "$best" ]; then
    echo "::error::no Xcode with Swift 6.2 or later; found:${found:- none}"
    exit 1
fi
echo "Using $best (Swift $((best_number / 10000)).$((best_number / 100 % 100)).$((best_number % 100)))"
echo "DEVELOPER_DIR=$best/Contents/Developer" >> "${GITHUB_ENV:-/dev/stdout}"
