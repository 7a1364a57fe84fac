#!/usr/bin/env bash
# Fail if the committed Python stubs differ from what the .proto files generate.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/gen_proto.sh
if ! git diff --quiet -- proto/; then
  echo "generated stubs drifted from proto/*.proto; run scripts/gen_proto.sh and commit:" >&2
  git --no-pager diff --stat -- proto/ >&2
  exit 1
fi
untracked=$(git ls-files --others --exclude-standard -- proto/)
if [ -n "$untracked" ]; then
  echo "generated files not committed: $untracked" >&2
  exit 1
fi
echo "stubs match proto/"
