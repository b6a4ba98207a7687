#!/usr/bin/env bash
# Installs the Debian packages the tests need (idempotent; a warm run only checks).
# bubblewrap: the command sandbox. chromium: the browser the VS Code UI tests drive (/usr/bin/chromium).
# libkrb5-dev: headers code-server's `kerberos` addon compiles against (scripts/e2e/install-tools.sh).
# Needs root (or sudo) on a machine that lacks them.
set -euo pipefail
if [ "$(uname -s)" != "Linux" ] || ! command -v dpkg >/dev/null 2>&1; then
  echo "install-system-deps: not a Debian-like Linux; install bubblewrap and chromium yourself if the tests need them" >&2
  exit 0
fi
pkgs=(bubblewrap chromium libkrb5-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# Build tools for code-server's native addons (node-gyp); most machines already have them.
for tool in make g++ pkg-config python3; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "installing: ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
