package dev.fabrictwin.analyzer.metrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The keys (devices, ports) that get series of their own: at most {@code cap}, and few changes from one refresh to
 * the next, so a dashboard's lines do not come and go with the noise of the residuals.
 *
 * <p>Pinned keys (an open alert's) come first, in the order given, if they are known. The other places go by a
 * key's peak score: its largest score so far, halving every {@value #HALF_LIFE} refreshes (a spike lists a key at
 * once; single-tick noise does not reorder the list). A key listed keeps its place until a newcomer's peak is more
 * than {@value #DISPLACE_FACTOR}× its own; a free place goes to the best newcomer. A key without a score in a refresh
 * (a device whose sample landed in the next tick) keeps its peak, decaying, for up to {@value #MAX_MISSED} refreshes
 * in a row before it is forgotten. When every candidate fits, every candidate is listed.
 */
final class Shortlist<K extends Comparable<K>> {

    /** Refreshes over which a peak score halves. */
    static final int HALF_LIFE = 10;
    /** A newcomer takes a listed key's place only when its peak is more than this many times that key's. */
    static final double DISPLACE_FACTOR = 2;
    /** Refreshes in a row a key may go without a score before it is forgotten. */
    static final int MAX_MISSED = 5;
    private static final double DECAY = Math.pow(0.5, 1.0 / HALF_LIFE);

    /** A key's decaying peak score, and the refreshes in a row it has had no score. */
    private record Peak(double value, int missed) {
    }

    private Map<K, Peak> peaks = new HashMap<>();
    private Set<K> listed = Set.of();

    /** The keys listed after this refresh: {@code pinned} first (up to {@code cap}), then by peak score. */
    Set<K> update(final List<K> pinned, final Map<K, Double> scores, final int cap) {
        final Map<K, Peak> now = new HashMap<>(scores.size() * 2);
        scores.forEach((k, s) -> now.put(k, new Peak(Math.max(magnitude(s), peak(k) * DECAY), 0)));
        peaks.forEach((k, p) -> {
            if (!scores.containsKey(k) && p.missed() < MAX_MISSED) {
                now.put(k, new Peak(p.value() * DECAY, p.missed() + 1));
            }
        });
        peaks = now;
        final Set<K> out = new LinkedHashSet<>();
        for (final K k : pinned) {
            if (out.size() >= cap) {
                break;
            }
            if (now.containsKey(k)) { // a pinned key never scored (nothing to show) takes no place
                out.add(k);
            }
        }
        final int places = cap - out.size();
        final List<K> candidates = new ArrayList<>(now.size());
        now.keySet().forEach(k -> {
            if (!out.contains(k)) {
                candidates.add(k);
            }
        });
        if (candidates.size() <= places) {
            candidates.sort(null);
            out.addAll(candidates);
        } else if (places > 0) {
            candidates.sort(Comparator.comparingDouble((K k) -> -peak(k)).thenComparing(Comparator.naturalOrder()));
            out.addAll(fill(candidates, places));
        }
        listed = out;
        return out;
    }

    /** The peak score a key is ranked by (0 when unknown). */
    double peak(final K key) {
        final Peak p = peaks.get(key);
        return p == null ? 0 : p.value();
    }

    private List<K> fill(final List<K> ranked, final int places) {
        final List<K> held = new ArrayList<>();
        final List<K> newcomers = new ArrayList<>();
        for (final K k : ranked) {
            if (listed.contains(k)) {
                if (held.size() < places) {
                    held.add(k);
                }
            } else if (newcomers.size() < places) {
                newcomers.add(k);
            }
        }
        // both lists are best first: free places go to the best newcomers, then each newcomer far stronger than
        // the weakest key still held takes that key's place
        int next = 0;
        while (held.size() < places && next < newcomers.size()) {
            held.add(newcomers.get(next++));
        }
        held.sort(Comparator.comparingDouble((K k) -> -peak(k)));
        for (int weakest = held.size() - 1; next < newcomers.size() && weakest >= 0; weakest--) {
            final K challenger = newcomers.get(next);
            if (peak(challenger) <= DISPLACE_FACTOR * peak(held.get(weakest))) {
                break;
            }
            held.set(weakest, challenger);
            next++;
        }
        return held;
    }

    private static double magnitude(final Double s) {
        return s == null || s.isNaN() ? 0 : Math.abs(s);
    }
}
