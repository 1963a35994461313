#!/usr/bin/env bash
# Installs Debian packages the checks need (by default: prometheus, for promtool and a real Prometheus
# server; kcat, a non-Java Kafka client; prometheus-node-exporter, a real exporter for `ingest --scrape`),
# unless their commands are already on PATH.
# Usage: scripts/install-debian-tools.sh [package ...]     Exit 0 when every command is available.
# .ci/run calls it before the tests; run it once yourself before `./mvnw verify` by hand. Tests never install
# anything: where a tool is missing they are skipped with the reason, and fail instead when CI=true.
set -euo pipefail

packages=("$@")
[ ${#packages[@]} -gt 0 ] || packages=(prometheus kcat prometheus-node-exporter)

command_of() {
  case "$1" in
    prometheus) echo promtool ;;
    prometheus-node-exporter) echo prometheus-node-exporter ;; # /usr/bin/prometheus-node-exporter, not node_exporter
    *) echo "$1" ;;
  esac
}

missing=()
for p in "${packages[@]}"; do
  command -v "$(command_of "$p")" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "cannot install ${missing[*]}: apt-get not found (not a Debian/Ubuntu machine)" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
  else
    echo "cannot install ${missing[*]}: not root and no password-less sudo" >&2
    exit 1
  fi
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# The lock wait covers another test installing at the same moment.
if ! { "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=120 update -qq \
       && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=120 install -y -qq \
            --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  echo "cannot install ${missing[*]}: apt-get failed: $(tail -n 3 "$log" | tr '\n' ' ')" >&2
  exit 1
fi
for p in "${missing[@]}"; do
  if ! command -v "$(command_of "$p")" >/dev/null 2>&1; then
    echo "installed $p but $(command_of "$p") is still not on PATH" >&2
    exit 1
  fi
done
