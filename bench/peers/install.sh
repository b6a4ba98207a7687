#!/usr/bin/env bash
# Installs the third-party ACP agents that bench/peers.ts measures, OUTSIDE the project
# (default /tmp/manifold-bench-peers), at pinned versions. Only the npm registry is used.
# Usage: bash bench/peers/install.sh [DIR]
set -euo pipefail
DIR="${1:-${MANIFOLD_BENCH_PEERS_DIR:-/tmp/manifold-bench-peers}}"
mkdir -p "$DIR"
cd "$DIR"
[ -f package.json ] || echo '{"name":"manifold-bench-peers","private":true}' > package.json
# Pinned: versions checked with `npm view <pkg> version engines` (engines: gemini-cli >=20; the
# zed-industries adapters declare none). @agentclientprotocol/claude-agent-acp needs Node >=22, so the
# older zed-industries build is used on Node 20.
PEERS=(
  "@google/gemini-cli@0.61.0"
  "@zed-industries/codex-acp@0.16.0"
  "@zed-industries/claude-agent-acp@0.23.1"
)
for p in "${PEERS[@]}"; do
  echo "[peers] installing $p into $DIR" >&2
  npm install --save-exact --no-audit --no-fund --loglevel=error "$p" || echo "[peers] FAILED: $p" >&2
done
ls "$DIR/node_modules/.bin" >&2
