#!/usr/bin/env bash
# Regenerate the Python stubs (with .pyi types) from proto/. CI reruns this and fails on drift.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m grpc_tools.protoc -I proto \
  --python_out=proto --pyi_out=proto --grpc_python_out=proto \
  proto/numgrid/v1/*.proto
