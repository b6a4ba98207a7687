#!/usr/bin/env bash
# Installs the real third-party ACP agents the real-agent tests drive, each pinned, each into its own
# npm prefix under a folder in /tmp (never into the project):
#   ${MANIFOLD_AGENTS_TOOLS:-/tmp/manifold-agents}/<id>-<version>/node_modules/.bin/<bin>
# Idempotent: a stamp per pinned version; a warm run only checks stamps and prints the paths.
# Usage: bash scripts/agents/install.sh [id…]   (default: every agent below)
# stdout: one `MANIFOLD_AGENT_<ID>=<path of its executable>` line per installed agent; logs go to stderr.
# Every npm run starts from the scrubbed environment of scripts/lib/clean-env.mjs (an outer `npm test`
# must not leak its config into these installs). A failed step prints the command, the last lines of
# its log and how to retry; the exit code is 1.
set -euo pipefail

TOOLS="${MANIFOLD_AGENTS_TOOLS:-/tmp/manifold-agents}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LOG="$TOOLS/install.log"

# The pins live in pins.json (the tests read the same file): one "id|package|version|bin" line each.
mapfile -t AGENTS < <(node -e 'for (const a of require(process.argv[1]).agents) console.log([a.id, a.package, a.version, a.bin].join("|"))' "$HERE/pins.json")

log() { echo "install-agents: $*" >&2; }

STEP_TAG=install-agents
STEP_NOTE="a half-installed agent is removed and installed again on retry"
STEP_RETRY() { echo "MANIFOLD_AGENTS_TOOLS=$TOOLS bash scripts/agents/install.sh $1"; }
# shellcheck source=../lib/step.sh
. "$HERE/../lib/step.sh"

wanted() {
  local id="$1"
  shift
  [ "$#" -eq 0 ] && return 0
  local w
  for w in "$@"; do [ "$w" = "$id" ] && return 0; done
  return 1
}

for a in "$@"; do
  case " ${AGENTS[*]} " in *" $a|"*) ;; *) log "unknown agent '$a' (known: gemini opencode codex claude)"; exit 2 ;; esac
done

mkdir -p "$TOOLS"
# One installer at a time (test files may call this concurrently).
exec 9>"$TOOLS/.lock"
flock 9

for entry in "${AGENTS[@]}"; do
  IFS='|' read -r id pkg version bin <<<"$entry"
  wanted "$id" "$@" || continue
  dir="$TOOLS/$id-$version"
  exe="$dir/node_modules/.bin/$bin"
  stamp="$TOOLS/.stamp-$id-$version"
  if [ -f "$stamp" ] && [ -x "$exe" ]; then
    log "$id: $pkg@$version already installed"
  else
    log "$id: installing $pkg@$version into $dir (log: $LOG)"
    rm -rf "$dir" "$stamp"
    mkdir -p "$dir"
    # --ignore-scripts is not used: codex-acp and opencode pick their native binary in postinstall
    # or through optional dependencies.
    step "$id" npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error "$pkg@$version"
    [ -x "$exe" ] || { log "FAILED: $id: $exe missing after install (see $LOG)"; exit 1; }
    touch "$stamp"
    log "$id: done"
  fi
  echo "MANIFOLD_AGENT_$(echo "$id" | tr '[:lower:]' '[:upper:]')=$exe"
done
