package dev.fabrictwin.twin.telemetry;

import java.io.Serializable;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * An immutable, insertion-ordered map over two arrays, for the small maps of a sample (tens of entries):
 * no per-entry nodes, lookups by linear scan (faster than hashing at this size), and nothing to copy when
 * a {@link Sample} is built from one. Values are boxed only when read through the {@link Map} interface. A map of
 * more than {@link #SCAN_MAX} entries (a hostile or unusual sample) also has a hash index, built with it, so neither
 * building nor reading it grows with the square of its size.
 * Public for the codec (fabric-contract's {@code SampleJson}), which builds a sample's maps as these.
 */
public final class FrozenMap<V> extends AbstractMap<String, V> implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Entries up to which lookups scan; above it they hash. */
    static final int SCAN_MAX = 32;

    private final String[] keys;
    private final Object[] values;
    private final int size;
    /** Key to position, for a map of more than {@link #SCAN_MAX} entries (made again when read back: readResolve). */
    private final transient Map<String, Integer> index;

    private FrozenMap(final String[] keys, final Object[] values, final int size, final Map<String, Integer> index) {
        this.keys = keys;
        this.values = values;
        this.size = size;
        this.index = index;
    }

    public static <V> FrozenMap<V> copyOf(final Map<String, ? extends V> source) {
        if (source instanceof FrozenMap<?> frozen) {
            @SuppressWarnings("unchecked")
            final FrozenMap<V> same = (FrozenMap<V>) frozen;
            return same;
        }
        final Builder<V> b = new Builder<>(source.size());
        source.forEach(b::put);
        return b.build();
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean containsKey(final Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(final Object key) {
        final int i = indexOf(key);
        return i < 0 ? null : (V) values[i];
    }

    /** Whether a key or a value is null (a scan, nothing made): what {@code Map.copyOf} would refuse. */
    public boolean hasNull() {
        for (int i = 0; i < size; i++) {
            if (keys[i] == null || values[i] == null) {
                return true;
            }
        }
        return false;
    }

    /** The first key longer than {@code max} characters, or null: a scan of the keys, no entry made. */
    public String keyLongerThan(final int max) {
        for (int i = 0; i < size; i++) {
            if (keys[i].length() > max) {
                return keys[i];
            }
        }
        return null;
    }

    /** The key at position {@code i} (insertion order), {@code 0 <= i < size()}. */
    public String keyAt(final int i) {
        return keys[Objects.checkIndex(i, size)];
    }

    /** The value at position {@code i}. */
    @SuppressWarnings("unchecked")
    public V valueAt(final int i) {
        return (V) values[Objects.checkIndex(i, size)];
    }

    /**
     * The position of {@code key}, or -1; {@code hint} is where it likely is (the same name's position in another map
     * of the same device, which reports its names in one order): tried first, by identity, before any scan.
     */
    public int indexOf(final Object key, final int hint) {
        return hint >= 0 && hint < size && keys[hint] == key ? hint : indexOf(key);
    }

    private int indexOf(final Object key) {
        if (index != null) {
            final Integer at = index.get(key);
            return at == null ? -1 : at;
        }
        // the codec's keys are interned, and lookups name constants: the same instance, found without comparing text
        for (int i = 0; i < size; i++) {
            if (keys[i] == key) {
                return i;
            }
        }
        for (int i = 0; i < size; i++) {
            if (keys[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public Set<Entry<String, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, V>> iterator() {
                return new Iterator<>() {
                    private int i;

                    @Override
                    public boolean hasNext() {
                        return i < size;
                    }

                    @Override
                    @SuppressWarnings("unchecked")
                    public Entry<String, V> next() {
                        if (i >= size) {
                            throw new NoSuchElementException();
                        }
                        final int at = i++;
                        return new SimpleImmutableEntry<>(keys[at], (V) values[at]);
                    }
                };
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    /** A large map read back from its serialized form gets its index again (a final field, as when built). */
    private Object readResolve() {
        return size > SCAN_MAX ? new FrozenMap<>(keys, values, size, indexOf(keys, size)) : this;
    }

    private static Map<String, Integer> indexOf(final String[] keys, final int size) {
        final Map<String, Integer> index = new HashMap<>(size * 2);
        for (int i = 0; i < size; i++) {
            index.putIfAbsent(keys[i], i);
        }
        return index;
    }

    /**
     * Collects entries in order; a repeated key keeps its last value, as a JSON object's would. Keys must not be null,
     * and a builder is done once built.
     */
    public static final class Builder<V> {
        private String[] keys;
        private Object[] values;
        private int size;
        /** Key to position once past {@link #SCAN_MAX} entries: finding a key then costs one lookup, not a scan. */
        private Map<String, Integer> index;
        private boolean built;

        public Builder(final int capacity) {
            keys = new String[Math.max(4, capacity)];
            values = new Object[keys.length];
        }

        public Builder<V> put(final String key, final V value) {
            final int at = find(key);
            if (at >= 0) {
                requireOpen();
                values[at] = value;
                return this;
            }
            return append(key, value);
        }

        /**
         * Adds an entry whose key the caller knows is not present (the keys of another map, one by one): no scan, so
         * building n entries costs n, not n²/2 key comparisons.
         */
        public Builder<V> putAbsent(final String key, final V value) {
            return append(key, value);
        }

        /** Adds an entry unless its key is present (the first value stays); false if it was. One scan, as {@link #put}. */
        public boolean putNew(final String key, final V value) {
            if (has(key)) {
                return false;
            }
            append(key, value);
            return true;
        }

        /** Whether an entry of this key was added (a scan while the map is small, as {@link #put} does). */
        public boolean has(final String key) {
            return find(key) >= 0;
        }

        private int find(final String key) {
            if (key == null) {
                throw new NullPointerException("a FrozenMap key must not be null");
            }
            if (index != null) {
                final Integer at = index.get(key);
                return at == null ? -1 : at;
            }
            for (int i = 0; i < size; i++) {
                if (keys[i].equals(key)) {
                    return i;
                }
            }
            return -1;
        }

        private Builder<V> append(final String key, final V value) {
            requireOpen();
            if (key == null) {
                throw new NullPointerException("a FrozenMap key must not be null");
            }
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, size * 2);
                values = Arrays.copyOf(values, size * 2);
            }
            keys[size] = key;
            values[size] = value;
            if (index != null) {
                index.putIfAbsent(key, size);
            } else if (size + 1 > SCAN_MAX) {
                index = indexOf(keys, size + 1);
            }
            size++;
            return this;
        }

        private void requireOpen() {
            if (built) {
                throw new IllegalStateException("this FrozenMap builder was built: it cannot change the map it made");
            }
        }

        public FrozenMap<V> build() {
            built = true;
            return new FrozenMap<>(keys, values, size, index);
        }
    }
}
