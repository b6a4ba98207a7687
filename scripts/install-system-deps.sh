#!/usr/bin/env bash
# Installs the Debian packages the tests need (idempotent; a warm run only checks).
# bubblewrap: the command sandbox. Needs root (or sudo) on a machine that lacks them.
set -euo pipefail
pkgs=(bubblewrap)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "installing: ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
