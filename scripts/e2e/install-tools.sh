#!/usr/bin/env bash
# Installs the tools the VS Code tier needs, pinned, into a folder under /tmp (never into the project):
#   Node 24 (npm package node-linux-<arch>@NODE24_VERSION) and code-server@CODE_SERVER_VERSION installed
#   BY Node 24 against Node 24's headers; Debian chromium (via scripts/install-system-deps.sh).
# Idempotent: a stamp file per pinned version; a warm run only checks stamps and prints the paths.
# stdout: KEY=value lines (MANIFOLD_E2E_NODE, MANIFOLD_E2E_CODE_SERVER, MANIFOLD_E2E_CHROMIUM, …); logs go to stderr.
# Env: MANIFOLD_E2E_TOOLS overrides the folder (default /tmp/manifold-e2e-tools).
# Every nested tool run (npm, node-gyp through it) starts from a scrubbed environment
# (scripts/lib/clean-env.mjs): under `npm test` or `npm start` the outer npm's config variables would
# otherwise reach the npm that runs on Node 24, and code-server's postinstall would see Node 20.
# A failed step prints the command, the last lines of its log and how to retry; the exit code is 1.
set -euo pipefail

NODE24_VERSION=24.22.3
CODE_SERVER_VERSION=4.139.1
TOOLS="${MANIFOLD_E2E_TOOLS:-/tmp/manifold-e2e-tools}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CHROMIUM="${MANIFOLD_E2E_CHROMIUM:-/usr/bin/chromium}"

case "$(uname -m)" in
  x86_64) ARCH=x64 ;;
  aarch64 | arm64) ARCH=arm64 ;;
  *) echo "install-tools: unsupported architecture $(uname -m)" >&2; exit 1 ;;
esac

NODE_DIR="$TOOLS/node-$NODE24_VERSION"
NODE_HOME="$NODE_DIR/node_modules/node-linux-$ARCH"
NODE_BIN="$NODE_HOME/bin/node"
NODE_STAMP="$TOOLS/.stamp-node-linux-$ARCH-$NODE24_VERSION"
CS_DIR="$TOOLS/code-server-$CODE_SERVER_VERSION"
CS_ENTRY="$CS_DIR/node_modules/code-server/out/node/entry.js"
CS_STAMP="$TOOLS/.stamp-code-server-$CODE_SERVER_VERSION-node-$NODE24_VERSION"

log() { echo "install-tools: $*" >&2; }
LOG="$TOOLS/install.log"

STEP_TAG=install-tools
STEP_NOTE="a half-installed tool is removed and installed again on retry"
STEP_RETRY() { echo "MANIFOLD_E2E_TOOLS=$TOOLS bash scripts/e2e/install-tools.sh"; }
# shellcheck source=../lib/step.sh
. "$HERE/../lib/step.sh"

print_paths() {
  echo "MANIFOLD_E2E_TOOLS=$TOOLS"
  echo "MANIFOLD_E2E_NODE=$NODE_BIN"
  echo "MANIFOLD_E2E_CODE_SERVER=$CS_ENTRY"
  echo "MANIFOLD_E2E_CHROMIUM=$CHROMIUM"
}

warm() { [ -f "$NODE_STAMP" ] && [ -x "$NODE_BIN" ] && [ -f "$CS_STAMP" ] && [ -f "$CS_ENTRY" ] && [ -x "$CHROMIUM" ]; }

if warm; then
  print_paths
  exit 0
fi

mkdir -p "$TOOLS"
# One installer at a time (test files may call this concurrently); re-check once the lock is ours.
exec 9>"$TOOLS/.lock"
flock 9
if warm; then
  print_paths
  exit 0
fi

# System packages: chromium, and libkrb5-dev before code-server (its kerberos addon compiles from source).
if [ ! -x "$CHROMIUM" ] || [ ! -f /usr/include/gssapi/gssapi.h ]; then
  log "system packages missing; running scripts/install-system-deps.sh"
  bash "$HERE/../install-system-deps.sh"
fi
[ -x "$CHROMIUM" ] || { log "no chromium at $CHROMIUM"; exit 1; }

if [ ! -f "$NODE_STAMP" ] || [ ! -x "$NODE_BIN" ]; then
  log "installing Node $NODE24_VERSION (npm: node-linux-$ARCH) into $NODE_DIR"
  started=$SECONDS
  rm -rf "$NODE_DIR"
  mkdir -p "$NODE_DIR"
  echo '{"private":true}' >"$NODE_DIR/package.json"
  step "installing Node $NODE24_VERSION from npm" \
    npm --prefix "$NODE_DIR" install --no-audit --no-fund --no-save --loglevel=error "node-linux-$ARCH@$NODE24_VERSION"
  [ "$("$NODE_BIN" --version)" = "v$NODE24_VERSION" ] || { log "unexpected node version: $("$NODE_BIN" --version)"; exit 1; }
  touch "$NODE_STAMP"
  log "Node $NODE24_VERSION ready in $((SECONDS - started)) s"
fi

if [ ! -f "$CS_STAMP" ] || [ ! -f "$CS_ENTRY" ]; then
  log "installing code-server@$CODE_SERVER_VERSION into $CS_DIR (native compile, ≈1.5 min on 2 cores)"
  started=$SECONDS
  rm -rf "$CS_DIR"
  mkdir -p "$CS_DIR"
  echo '{"private":true,"allowScripts":{"code-server":true,"argon2":true}}' >"$CS_DIR/package.json"
  # npm itself must run on Node 24 (code-server's postinstall checks the npm user agent's node major),
  # and node-gyp must compile the native addons against Node 24's headers.
  step "installing code-server@$CODE_SERVER_VERSION with Node $NODE24_VERSION" \
    --prepend-path "$NODE_HOME/bin" npm_config_nodedir="$NODE_HOME" \
    npm --prefix "$CS_DIR" install --no-audit --no-fund --no-save --loglevel=error "code-server@$CODE_SERVER_VERSION"
  [ -f "$CS_ENTRY" ] || { log "code-server entry missing after install: $CS_ENTRY"; exit 1; }
  touch "$CS_STAMP"
  log "code-server $CODE_SERVER_VERSION ready in $((SECONDS - started)) s"
fi

print_paths
