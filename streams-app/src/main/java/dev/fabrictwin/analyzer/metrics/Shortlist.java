package dev.fabrictwin.analyzer.metrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The keys (devices, ports) that get series of their own: at most {@code cap}, and few changes from one refresh to
 * the next, so a dashboard's lines do not come and go with the noise of the residuals.
 *
 * <p>Pinned keys (an open alert's) come first, in the order given, if they have a score. The other places go by score: a key already
 * listed keeps its place while it ranks among the best {@value #STAY_RANKS}× as many candidates as there are
 * places; a new key takes a free place if it ranks among the best, and a held place only if it scores more than
 * {@value #DISPLACE_FACTOR}× the weakest key held. When every candidate fits, every candidate is listed.
 */
final class Shortlist<K extends Comparable<K>> {

    /** A listed key stays while it ranks within this many times the places by score. */
    static final int STAY_RANKS = 2;
    /** A newcomer takes a held place only when it scores more than this many times the weakest key held. */
    static final double DISPLACE_FACTOR = 2;

    private Set<K> listed = Set.of();

    /** The keys listed after this refresh: {@code pinned} first (up to {@code cap}), then by {@code scores}. */
    Set<K> update(final List<K> pinned, final Map<K, Double> scores, final int cap) {
        final Set<K> out = new LinkedHashSet<>();
        for (final K k : pinned) {
            if (out.size() >= cap) {
                break;
            }
            if (scores.containsKey(k)) { // a pinned key with nothing to show takes no place
                out.add(k);
            }
        }
        final int places = cap - out.size();
        final List<K> candidates = new ArrayList<>(scores.size());
        scores.keySet().forEach(k -> {
            if (!out.contains(k)) {
                candidates.add(k);
            }
        });
        if (candidates.size() <= places) {
            candidates.sort(null);
            out.addAll(candidates);
        } else if (places > 0) {
            candidates.sort(Comparator.comparingDouble((K k) -> -score(scores, k)).thenComparing(Comparator.naturalOrder()));
            fill(out, candidates, scores, places);
        }
        listed = out;
        return out;
    }

    /** The keys listed by the last {@link #update}. */
    Set<K> listed() {
        return listed;
    }

    private void fill(final Set<K> out, final List<K> ranked, final Map<K, Double> scores, final int places) {
        final List<K> held = new ArrayList<>();
        final List<K> newcomers = new ArrayList<>();
        final int stay = (int) Math.min(ranked.size(), (long) STAY_RANKS * places);
        for (int rank = 0; rank < stay; rank++) {
            final K k = ranked.get(rank);
            if (listed.contains(k)) {
                if (held.size() < places) {
                    held.add(k);
                }
            } else if (rank < places) {
                newcomers.add(k);
            }
        }
        // newcomers are best first: free places go to the best of them, then each one far stronger than the
        // weakest key still held takes that key's place
        int next = 0;
        while (held.size() < places && next < newcomers.size()) {
            held.add(newcomers.get(next++));
        }
        held.sort(Comparator.comparingDouble((K k) -> -score(scores, k)));
        for (int weakest = held.size() - 1; next < newcomers.size() && weakest >= 0; weakest--) {
            final K challenger = newcomers.get(next);
            if (score(scores, challenger) <= DISPLACE_FACTOR * score(scores, held.get(weakest))) {
                break;
            }
            held.set(weakest, challenger);
            next++;
        }
        out.addAll(held);
    }

    private static <K> double score(final Map<K, Double> scores, final K k) {
        final Double s = scores.get(k);
        return s == null || s.isNaN() ? 0 : Math.abs(s);
    }
}
