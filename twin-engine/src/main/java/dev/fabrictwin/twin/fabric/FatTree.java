package dev.fabrictwin.twin.fabric;

/**
 * Three-tier fat-tree of pods. Leaves (edge) are {@code leaf-i} numbered across pods (pod = i div leavesPerPod),
 * aggregation switches are {@code spine-j} (pod = j div spinesPerPod), cores are {@code core-c}.
 * Ports: on a leaf, {@code eth0..eth(d-1)} face host NICs in host then NIC order, then {@code eth(d+j)} faces
 * the j-th spine of its pod; on a spine with local index j, {@code eth0..eth(L-1)} face its pod's leaves in
 * order, then {@code eth(L+m)} faces {@code core-(j·C/S + m)}; on a core, {@code eth<p>} faces pod p's spine.
 * With only {@code k} given this is the classic k-ary fat-tree: k pods of k/2 leaves and k/2 spines,
 * (k/2)² cores, k/2 hosts per leaf.
 */
public record FatTree(int pods, int leavesPerPod, int spinesPerPod, int cores, int hostsPerLeaf, int nicsPerHost,
                      double linkSpeedBps, double hostLinkSpeedBps, double coreLinkSpeedBps, Technology technology)
        implements FabricSpec {
    public FatTree {
        FabricSpec.requirePositive("pods", pods);
        FabricSpec.requirePositive("leavesPerPod", leavesPerPod);
        FabricSpec.requirePositive("spinesPerPod", spinesPerPod);
        FabricSpec.requirePositive("cores", cores);
        FabricSpec.requirePositive("hostsPerLeaf", hostsPerLeaf);
        FabricSpec.requirePositive("nicsPerHost", nicsPerHost);
        FabricSpec.requirePositive("linkSpeed", linkSpeedBps);
        FabricSpec.requirePositive("hostLinkSpeed", hostLinkSpeedBps);
        FabricSpec.requirePositive("coreLinkSpeed", coreLinkSpeedBps);
        if (cores % spinesPerPod != 0) {
            throw new IllegalArgumentException("fabric cores (" + cores + ") must be a multiple of spinesPerPod ("
                + spinesPerPod + ") so every spine reaches the same number of cores");
        }
    }

    /** The classic k-ary fat-tree (k even). */
    public static FatTree kAry(final int k, final int nicsPerHost, final double linkSpeedBps, final double hostLinkSpeedBps,
                               final Technology technology) {
        if (k < 2 || k % 2 != 0) {
            throw new IllegalArgumentException("fat-tree k must be even and >= 2, was " + k);
        }
        return new FatTree(k, k / 2, k / 2, (k / 2) * (k / 2), k / 2, nicsPerHost, linkSpeedBps, hostLinkSpeedBps,
            linkSpeedBps, technology);
    }

    @Override
    public long linkCount() {
        final long leavesTotal = (long) pods * leavesPerPod;
        return leavesTotal * hostsPerLeaf * nicsPerHost + leavesTotal * spinesPerPod
            + (long) pods * spinesPerPod * (cores / spinesPerPod);
    }

    @Override
    public int hostCount() {
        return pods * leavesPerPod * hostsPerLeaf;
    }

    @Override
    public Fabric build(final String id) {
        final FabricBuilder b = new FabricBuilder(id).technology(technology);
        final int coresPerSpine = cores / spinesPerPod;
        final int[] core = new int[cores];
        for (int c = 0; c < cores; c++) {
            core[c] = b.addNode("core-" + c, Tier.CORE, -1);
        }
        final int d = hostsPerLeaf * nicsPerHost;
        int hostIndex = 0;
        for (int p = 0; p < pods; p++) {
            final int[] spine = new int[spinesPerPod];
            for (int j = 0; j < spinesPerPod; j++) {
                spine[j] = b.addNode("spine-" + (p * spinesPerPod + j), Tier.SPINE, p);
                for (int m = 0; m < coresPerSpine; m++) {
                    b.connect(spine[j], "eth" + (leavesPerPod + m), core[j * coresPerSpine + m], "eth" + p, coreLinkSpeedBps);
                }
            }
            for (int i = 0; i < leavesPerPod; i++) {
                final int leaf = b.addNode("leaf-" + (p * leavesPerPod + i), Tier.LEAF, p);
                for (int h = 0; h < hostsPerLeaf; h++) {
                    final int host = b.addNode("host-" + hostIndex++, Tier.HOST, p);
                    for (int k = 0; k < nicsPerHost; k++) {
                        b.connect(host, "nic" + k, leaf, "eth" + (h * nicsPerHost + k), hostLinkSpeedBps);
                    }
                }
                for (int j = 0; j < spinesPerPod; j++) {
                    b.connect(leaf, "eth" + (d + j), spine[j], "eth" + i, linkSpeedBps);
                }
            }
        }
        return b.build();
    }
}
