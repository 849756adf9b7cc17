#!/usr/bin/env bash
# Refreshes the vendored htmx from its npm package: update.sh 2.0.11
set -euo pipefail
version=${1:?usage: update.sh VERSION}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "htmx.org@$version" >/dev/null && tar xzf htmx.org-*.tgz)
cp "$tmp/package/dist/htmx.min.js" "$here/htmx.min.js"
cp "$tmp/package/LICENSE" "$here/htmx.LICENSE"
echo "htmx $version copied; update README.md"
