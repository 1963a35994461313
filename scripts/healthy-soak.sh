#!/usr/bin/env bash
# Healthy soak: false root alerts per 10k ports per day on the healthy 1k-GPU fabric (2,304 counter ports,
# 10 s polls), each run a fresh randomized reality *and* a fresh seed (job placement, ECMP hash), so runs made on
# different days add up: keep every run's line, sum the port-hours, count the false roots (the log in
# docs/history/robustness-measurements.md, "Healthy soak log").
# Usage: scripts/healthy-soak.sh RUNS FIRST_SEED [DURATION]      e.g. scripts/healthy-soak.sh 40 7001 2h
# Prints one line per run as it finishes, then the summary; exit 0 when no false root alert was opened.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -lt 2 ] || ! [[ "$1" =~ ^[1-9][0-9]*$ ]] || ! [[ "$2" =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/healthy-soak.sh RUNS FIRST_SEED [DURATION, default 2h]" >&2
  exit 2
fi
runs="$1" first="$2" duration="${3:-2h}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
for ((i = 0; i < runs; i++)); do
  seed=$((first + i))
  sed -e "s/^seed: .*/seed: $seed/" -e "s/^name: .*/name: healthy-1k-s$seed/" -e "s/^duration: .*/duration: $duration/" \
    "$root/scenarios/robustness/healthy-1k.yaml" > "$dir/healthy-1k-s$seed.yaml"
done
out="$dir/eval.txt"
"$root/bin/fabric-twin" eval --all "$dir" --draws 1 2>&1 | tee "$out" | grep -E '^eval: draw|^Healthy|false:' || true
grep -q '^Healthy scenarios: .* 0 false root alert' "$out"
