package dev.fabrictwin.twin.fabric;

/**
 * Rail-optimized two-tier fabric. Hosts (8 NICs each by default) form groups of {@code hostsPerGroup};
 * each group has one rail leaf per NIC index: NIC k of every host in group g plugs into
 * {@code leaf-(g·K + k)}. On a leaf, {@code eth0..eth(G-1)} face NIC k of the group's hosts in host order,
 * then {@code eth(G+j)} faces {@code spine-j}; on {@code spine-j}, {@code eth<i>} faces {@code leaf-i}.
 * Same-rail traffic within a group stays on its leaf; everything else crosses a spine.
 */
public record RailOptimized(int hosts, int nicsPerHost, int hostsPerGroup, int spines, double linkSpeedBps,
                            double hostLinkSpeedBps, Technology technology) implements FabricSpec {
    public RailOptimized {
        FabricSpec.requirePositive("hosts", hosts);
        FabricSpec.requirePositive("nicsPerHost", nicsPerHost);
        FabricSpec.requirePositive("hostsPerGroup", hostsPerGroup);
        FabricSpec.requirePositive("spines", spines);
        FabricSpec.requirePositive("linkSpeed", linkSpeedBps);
        FabricSpec.requirePositive("hostLinkSpeed", hostLinkSpeedBps);
    }

    @Override
    public long linkCount() {
        final long groups = (hosts + (long) hostsPerGroup - 1) / hostsPerGroup;
        return (long) hosts * nicsPerHost + groups * nicsPerHost * spines;
    }

    @Override
    public int hostCount() {
        return hosts;
    }

    @Override
    public Fabric build(final String id) {
        final FabricBuilder b = new FabricBuilder(id).technology(technology);
        final int groups = (hosts + hostsPerGroup - 1) / hostsPerGroup;
        final int[] spine = new int[spines];
        for (int j = 0; j < spines; j++) {
            spine[j] = b.addNode("spine-" + j, Tier.SPINE, -1);
        }
        for (int g = 0; g < groups; g++) {
            final int[] leaf = new int[nicsPerHost];
            for (int k = 0; k < nicsPerHost; k++) {
                final int li = g * nicsPerHost + k;
                leaf[k] = b.addNode("leaf-" + li, Tier.LEAF, g);
                for (int j = 0; j < spines; j++) {
                    b.connect(leaf[k], "eth" + (hostsPerGroup + j), spine[j], "eth" + li, linkSpeedBps);
                }
            }
            for (int h = 0; h < hostsPerGroup && g * hostsPerGroup + h < hosts; h++) {
                final int host = b.addNode("host-" + (g * hostsPerGroup + h), Tier.HOST, g);
                for (int k = 0; k < nicsPerHost; k++) {
                    b.connect(host, "nic" + k, leaf[k], "eth" + h, hostLinkSpeedBps);
                }
            }
        }
        return b.build();
    }
}
