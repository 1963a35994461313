package dev.fabrictwin.twin.telemetry;

import java.io.Serializable;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An immutable, insertion-ordered map over two arrays, for the small maps of a sample (tens of entries):
 * no per-entry nodes, lookups by linear scan (faster than hashing at this size), and nothing to copy when
 * a {@link Sample} is built from one. Values are boxed only when read through the {@link Map} interface.
 * Public for the codec (fabric-contract's {@code SampleJson}), which builds a sample's maps as these.
 */
public final class FrozenMap<V> extends AbstractMap<String, V> implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String[] keys;
    private final Object[] values;
    private final int size;

    private FrozenMap(final String[] keys, final Object[] values, final int size) {
        this.keys = keys;
        this.values = values;
        this.size = size;
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

    private int indexOf(final Object key) {
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

    /** Collects entries in order; a repeated key keeps its last value, as a JSON object's would. */
    public static final class Builder<V> {
        private String[] keys;
        private Object[] values;
        private int size;

        public Builder(final int capacity) {
            keys = new String[Math.max(4, capacity)];
            values = new Object[keys.length];
        }

        public Builder<V> put(final String key, final V value) {
            for (int i = 0; i < size; i++) {
                if (keys[i].equals(key)) {
                    values[i] = value;
                    return this;
                }
            }
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, size * 2);
                values = Arrays.copyOf(values, size * 2);
            }
            keys[size] = key;
            values[size++] = value;
            return this;
        }

        /**
         * Adds an entry whose key the caller knows is not present (the keys of another map, one by one): no scan, so
         * building n entries costs n, not n²/2 key comparisons.
         */
        public Builder<V> putAbsent(final String key, final V value) {
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, size * 2);
                values = Arrays.copyOf(values, size * 2);
            }
            keys[size] = key;
            values[size++] = value;
            return this;
        }

        /** Adds an entry unless its key is present (the first value stays); false if it was. One scan, as {@link #put}. */
        public boolean putNew(final String key, final V value) {
            if (has(key)) {
                return false;
            }
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, size * 2);
                values = Arrays.copyOf(values, size * 2);
            }
            keys[size] = key;
            values[size++] = value;
            return true;
        }

        /** Whether an entry of this key was added (a sample's maps are small: a scan, as {@link #put} does). */
        public boolean has(final String key) {
            for (int i = 0; i < size; i++) {
                if (keys[i].equals(key)) {
                    return true;
                }
            }
            return false;
        }

        public FrozenMap<V> build() {
            return new FrozenMap<>(keys, values, size);
        }
    }
}
