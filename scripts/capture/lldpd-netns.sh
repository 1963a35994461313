#!/usr/bin/env bash
# Produces the real lldpctl outputs in cluster-import/src/test/resources/refdata/debian-lldpd/ (see its MANIFEST rows):
# Debian's lldpd (apt-get install lldpd; 1.0.16-1+deb12u1 on Debian 12) run in four network namespaces joined by veth
# pairs, as root:  leaf01 swp1 -- gpu01 eth0,  leaf01 swp51 -- spine01 swp1,  and gpu02, whose eth0's other end is in a
# namespace with no LLDP agent (a host with no neighbour). Switches forward IPv4, so lldpd advertises Router.
# Usage: scripts/capture/lldpd-netns.sh OUTDIR     (about 40 s; removes its namespaces on exit)
set -euo pipefail
out=${1:?usage: $0 OUTDIR}
mkdir -p "$out"
ns=(leaf01 spine01 gpu01 gpu02 quiet)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for n in "${ns[@]}"; do ip netns del "cap-$n" 2>/dev/null || true; done
}
trap cleanup EXIT
for n in "${ns[@]}"; do ip netns add "cap-$n"; ip -n "cap-$n" link set lo up; done
pair() { # pair NS1 IF1 NS2 IF2
  ip link add "cap$$a" type veth peer name "cap$$b"
  ip link set "cap$$a" netns "cap-$1"; ip -n "cap-$1" link set "cap$$a" name "$2" up
  ip link set "cap$$b" netns "cap-$3"; ip -n "cap-$3" link set "cap$$b" name "$4" up
}
pair leaf01 swp1 gpu01 eth0
pair leaf01 swp51 spine01 swp1
pair gpu02 eth0 quiet eth0
for n in leaf01 spine01; do ip netns exec "cap-$n" sysctl -qw net.ipv4.ip_forward=1; done
for n in leaf01 spine01 gpu01 gpu02; do
  mkdir -p /run/lldpd
  ip netns exec "cap-$n" lldpd -d -u "/run/lldpd/cap-$n.socket" >"$out/.lldpd-$n.log" 2>&1 &
  pids+=($!)
done
sleep 3
for n in leaf01 spine01 gpu01 gpu02; do
  ip netns exec "cap-$n" lldpcli -u "/run/lldpd/cap-$n.socket" configure system hostname "$n"
  ip netns exec "cap-$n" lldpcli -u "/run/lldpd/cap-$n.socket" update
done
sleep 35 # lldpd transmits every 30 s; an update sends at once, the wait covers its peers' answers
for n in leaf01 spine01 gpu01 gpu02; do
  for f in json json0 keyvalue; do
    ip netns exec "cap-$n" lldpctl -u "/run/lldpd/cap-$n.socket" -f "$f" >"$out/$n.lldpctl-$f.txt"
  done
done
rm -f "$out"/.lldpd-*.log
lldpd -v >"$out/VERSION" 2>&1 || true
