#!/usr/bin/env bash
# Rebuilds and prints every [4,6] table of the thesis; pass --format csv|json|latex to change.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release --quiet -- thesis "$@"
