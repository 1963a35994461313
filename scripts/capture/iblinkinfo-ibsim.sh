#!/usr/bin/env bash
# Produces the real iblinkinfo output in cluster-import/src/test/resources/refdata/debian-ibsim/ (see its MANIFEST rows):
# Debian 12's infiniband-diags 44.0 (iblinkinfo) run against ibsim 0.10 (apt-get install infiniband-diags ibsim-utils),
# InfiniBand's fabric simulator, which answers the management datagrams iblinkinfo sends through libumad2sim (LD_PRELOAD,
# by ibsim-run) over a local unix socket: no InfiniBand hardware, no kernel module, no network. The fabric is
# ibsim.net beside the output: a spine, two leaves, four hosts (node descriptions "gpu01 mlx5_0" as mlx5 HCAs print
# them), some switch ports unconnected. No subnet manager runs, so ports are Initialize/LinkUp with LID 0 and ibsim's
# default link of 4X SDR (2.5 Gbps lanes).
# Usage: scripts/capture/iblinkinfo-ibsim.sh OUTDIR     (a few seconds)
set -euo pipefail
out=${1:?usage: $0 OUTDIR}
mkdir -p "$out"
cat >"$out/ibsim.net" <<'NET'
Hca	1 "gpu01 mlx5_0"
[1]	"leaf01"[1]

Switch	8 "spine01"
[1]	"leaf01"[7]
[2]	"leaf02"[7]

Switch	8 "leaf01"
[1]	"gpu01 mlx5_0"[1]
[2]	"gpu02 mlx5_0"[1]
[7]	"spine01"[1]

Switch	8 "leaf02"
[1]	"gpu03 mlx5_0"[1]
[2]	"gpu04 mlx5_0"[1]
[7]	"spine01"[2]

Hca	1 "gpu02 mlx5_0"
[1]	"leaf01"[2]

Hca	1 "gpu03 mlx5_0"
[1]	"leaf02"[1]

Hca	1 "gpu04 mlx5_0"
[1]	"leaf02"[2]
NET
ibsim -s -n "$out/ibsim.net" >/dev/null 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
sleep 2
ibsim-run iblinkinfo 2>/dev/null >"$out/iblinkinfo.txt"
dpkg-query -W infiniband-diags ibsim-utils >"$out/VERSION"
