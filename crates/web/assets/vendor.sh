#!/usr/bin/env bash
# Re-fetches the page's one JavaScript library from the npm registry at its pinned version.
set -euo pipefail
cd "$(dirname "$0")/vendor"
VERSION=3.35.0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "cytoscape@$VERSION" --silent >/dev/null)
tar -xzf "$tmp/cytoscape-$VERSION.tgz" -C "$tmp"
cp "$tmp/package/dist/cytoscape.min.js" cytoscape.min.js
cp "$tmp/package/LICENSE" LICENSE-cytoscape
echo "cytoscape $VERSION" > VERSION
