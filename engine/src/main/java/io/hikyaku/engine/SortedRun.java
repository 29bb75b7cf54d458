package io.hikyaku.engine;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Bulk-fills an empty tree from an already sorted list. TreeSet.addAll and TreeMap.putAll build a
 * balanced tree in linear time, with no comparisons or rebalancing, when given a sorted collection
 * with the same comparator; the loader uses this to rebuild a million-message index at start-up.
 * Without that JDK fast path the result is the same, only slower. The views below are read-once
 * adapters for that call and support nothing else.
 */
final class SortedRun {

    private SortedRun() {
    }

    /** Adds {@code sorted} (ascending by {@code set}'s comparator, no duplicates) to the empty {@code set}. */
    static <T> void fill(TreeSet<T> set, List<T> sorted) {
        if (!set.isEmpty()) {
            throw new IllegalStateException("bulk fill needs an empty set");
        }
        set.addAll(new SetView<>(sorted, set.comparator()));
    }

    /** Puts every message of {@code bySeq} (ascending seq) into the empty {@code map} under its seq. */
    static void fillBySeq(TreeMap<Long, Message> map, List<Message> bySeq) {
        if (!map.isEmpty() || map.comparator() != null) {
            throw new IllegalStateException("bulk fill needs an empty naturally ordered map");
        }
        map.putAll(new SeqMapView(bySeq));
    }

    /** True when {@code list} is strictly ascending by {@code order}. */
    static <T> boolean strictlyAscending(List<T> list, Comparator<? super T> order) {
        for (int i = 1; i < list.size(); i++) {
            if (order.compare(list.get(i - 1), list.get(i)) >= 0) {
                return false;
            }
        }
        return true;
    }

    private static final class SetView<T> extends AbstractSet<T> implements SortedSet<T> {
        private final List<T> items;
        private final Comparator<? super T> order;

        SetView(List<T> items, Comparator<? super T> order) {
            this.items = items;
            this.order = order;
        }

        @Override
        public Iterator<T> iterator() {
            return items.iterator();
        }

        @Override
        public int size() {
            return items.size();
        }

        @Override
        public Comparator<? super T> comparator() {
            return order;
        }

        @Override
        public T first() {
            return items.get(0);
        }

        @Override
        public T last() {
            return items.get(items.size() - 1);
        }

        @Override
        public SortedSet<T> subSet(T from, T to) {
            throw new UnsupportedOperationException();
        }

        @Override
        public SortedSet<T> headSet(T to) {
            throw new UnsupportedOperationException();
        }

        @Override
        public SortedSet<T> tailSet(T from) {
            throw new UnsupportedOperationException();
        }
    }

    private static final class SeqMapView extends AbstractMap<Long, Message> implements SortedMap<Long, Message> {
        private final List<Message> bySeq;

        SeqMapView(List<Message> bySeq) {
            this.bySeq = bySeq;
        }

        @Override
        public Set<Map.Entry<Long, Message>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Map.Entry<Long, Message>> iterator() {
                    Iterator<Message> it = bySeq.iterator();
                    return new Iterator<>() {
                        @Override
                        public boolean hasNext() {
                            return it.hasNext();
                        }

                        @Override
                        public Map.Entry<Long, Message> next() {
                            Message m = it.next();
                            return new AbstractMap.SimpleImmutableEntry<>(m.seq, m);
                        }
                    };
                }

                @Override
                public int size() {
                    return bySeq.size();
                }
            };
        }

        @Override
        public int size() {
            return bySeq.size();
        }

        @Override
        public Comparator<? super Long> comparator() {
            return null;
        }

        @Override
        public Long firstKey() {
            return bySeq.get(0).seq;
        }

        @Override
        public Long lastKey() {
            return bySeq.get(bySeq.size() - 1).seq;
        }

        @Override
        public SortedMap<Long, Message> subMap(Long from, Long to) {
            throw new UnsupportedOperationException();
        }

        @Override
        public SortedMap<Long, Message> headMap(Long to) {
            throw new UnsupportedOperationException();
        }

        @Override
        public SortedMap<Long, Message> tailMap(Long from) {
            throw new UnsupportedOperationException();
        }
    }
}
