package dev.fabrictwin.twin.fabric;

/**
 * Two-tier spine-leaf. On {@code leaf-i}, {@code eth0..eth(d-1)} face its hosts' NICs in host order then
 * NIC order (d = hostsPerLeaf × nicsPerHost), then {@code eth(d)..eth(d+S-1)} face {@code spine-0..spine-(S-1)};
 * on {@code spine-j}, {@code eth<i>} faces {@code leaf-i}. Host {@code host-h} hangs off leaf h div hostsPerLeaf.
 */
public record SpineLeaf(int spines, int leaves, int hostsPerLeaf, int nicsPerHost, double linkSpeedBps,
                        double hostLinkSpeedBps, Technology technology) implements FabricSpec {
    public SpineLeaf {
        FabricSpec.requirePositive("spines", spines);
        FabricSpec.requirePositive("leaves", leaves);
        FabricSpec.requirePositive("hostsPerLeaf", hostsPerLeaf);
        FabricSpec.requirePositive("nicsPerHost", nicsPerHost);
        FabricSpec.requirePositive("linkSpeed", linkSpeedBps);
        FabricSpec.requirePositive("hostLinkSpeed", hostLinkSpeedBps);
    }

    @Override
    public long linkCount() {
        return (long) leaves * spines + (long) leaves * hostsPerLeaf * nicsPerHost;
    }

    @Override
    public int hostCount() {
        return leaves * hostsPerLeaf;
    }

    @Override
    public Fabric build(final String id) {
        final FabricBuilder b = new FabricBuilder(id).technology(technology);
        final int[] spine = new int[spines];
        for (int j = 0; j < spines; j++) {
            spine[j] = b.addNode("spine-" + j, Tier.SPINE, -1);
        }
        final int d = hostsPerLeaf * nicsPerHost;
        for (int i = 0; i < leaves; i++) {
            final int leaf = b.addNode("leaf-" + i, Tier.LEAF, -1);
            for (int h = 0; h < hostsPerLeaf; h++) {
                final int host = b.addNode("host-" + (i * hostsPerLeaf + h), Tier.HOST, -1);
                for (int k = 0; k < nicsPerHost; k++) {
                    b.connect(host, "nic" + k, leaf, "eth" + (h * nicsPerHost + k), hostLinkSpeedBps);
                }
            }
            for (int j = 0; j < spines; j++) {
                b.connect(leaf, "eth" + (d + j), spine[j], "eth" + i, linkSpeedBps);
            }
        }
        return b.build();
    }
}
