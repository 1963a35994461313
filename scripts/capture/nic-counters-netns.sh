#!/usr/bin/env bash
# Produces the real counter outputs in telemetry-ingest/src/test/resources/refdata/debian-netns/ (see their MANIFEST
# rows), as root, with Debian 12's packages (apt-get install ethtool prometheus-node-exporter iproute2; ethtool 6.1,
# node_exporter 1.5.0): a veth pair between two network namespaces carries a few UDP datagrams, then
#   ethtool -S of both veth ends (veth: no interface name in the output, peer_ifindex),
#   the loop docs/ingest.md gives for several NICs of one host: '# ethtool -S IF' before each dump,
#   ethtool -S of this machine's own eth0 (virtio_net), and its ethtool --json -S --all-groups,
#   node_exporter's netdev and netclass collectors on this machine (then its ethtool collector alone), listening on
#   loopback only: a virtio_net NIC reports no link speed (/sys/class/net/eth0/speed is -1), so node_network_speed_bytes
#   is -125000.
# Usage: scripts/capture/nic-counters-netns.sh OUTDIR     (a few seconds; removes its namespaces on exit)
set -euo pipefail
out=${1:?usage: $0 OUTDIR}
mkdir -p "$out"
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  ip netns del cap-gpu 2>/dev/null || true
  ip netns del cap-leaf 2>/dev/null || true
}
trap cleanup EXIT
ip netns add cap-gpu; ip netns add cap-leaf
ip -n cap-gpu link set lo up; ip -n cap-leaf link set lo up
ip link add capveth0 type veth peer name capveth1
ip link set capveth0 netns cap-gpu; ip -n cap-gpu link set capveth0 name ens1f0 up
ip link set capveth1 netns cap-leaf; ip -n cap-leaf link set capveth1 name swp1 up
ip link add capveth2 type veth peer name capveth3
ip link set capveth2 netns cap-gpu; ip -n cap-gpu link set capveth2 name ens1f1 up
ip link set capveth3 netns cap-leaf; ip -n cap-leaf link set capveth3 name swp2 up
ip -n cap-gpu addr add 10.33.0.1/30 dev ens1f0; ip -n cap-leaf addr add 10.33.0.2/30 dev swp1
sleep 1
# a few UDP datagrams (and the ARP they need), without ping: bash opens /dev/udp itself
for i in 1 2 3 4 5; do ip netns exec cap-gpu bash -c "echo fabric-twin >/dev/udp/10.33.0.2/9"; sleep 0.2; done
ip netns exec cap-gpu ethtool -S ens1f0 >"$out/veth-ens1f0.ethtool-S.txt"
ip netns exec cap-leaf ethtool -S swp1 >"$out/veth-swp1.ethtool-S.txt"
ip netns exec cap-gpu bash -c 'for i in ens1f0 ens1f1; do echo "# ethtool -S $i"; ethtool -S $i; done' \
  >"$out/veth-two-nics.ethtool-S-loop.txt"
if [ "$(ethtool -i eth0 2>/dev/null | sed -n 's/^driver: //p')" = virtio_net ]; then
  ethtool -S eth0 >"$out/virtio_net-eth0.ethtool-S.txt"
  # ethtool 6.1's only JSON statistics: the standard groups (driver statistics have no --json form; plain
  # 'ethtool --json -S eth0' is "bad command line argument(s)"), all empty on virtio_net
  ethtool --json -S eth0 --all-groups >"$out/virtio_net-eth0.ethtool-json-S-all-groups.json"
fi
prometheus-node-exporter --web.listen-address=127.0.0.1:19133 --collector.disable-defaults \
  --collector.netdev --collector.netclass >/dev/null 2>&1 &
pid=$!
sleep 2
curl -s http://127.0.0.1:19133/metrics | grep -E '^(# (HELP|TYPE) )?node_network_' >"$out/node_exporter-1.5.0-host.prom"
kill "$pid"; pid=
# its ethtool collector alone (node_ethtool_*: virtio_net's rx0_* per-queue lines, renamed rx_ -> received_)
prometheus-node-exporter --web.listen-address=127.0.0.1:19133 --collector.disable-defaults --collector.ethtool \
  >/dev/null 2>&1 &
pid=$!
sleep 2
curl -s http://127.0.0.1:19133/metrics | grep -E '^(# (HELP|TYPE) )?node_ethtool_' >"$out/node_exporter-1.5.0-ethtool.prom"
ethtool --version >"$out/VERSION"; prometheus-node-exporter --version 2>&1 | head -1 >>"$out/VERSION"
