package io.nczarr.cdm;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Counts fuzz outcomes and keeps the first few escapes with the case that caused them. */
final class FuzzTally {
    private static final int KEPT_ESCAPES = 20;

    private final Map<FuzzOutcome.Kind, Long> counts = new EnumMap<>(FuzzOutcome.Kind.class);
    private final List<String> escapes = new ArrayList<>();

    synchronized void add(String caseName, FuzzOutcome o) {
        counts.merge(o.kind(), 1L, Long::sum);
        if (o.kind() == FuzzOutcome.Kind.ESCAPE && escapes.size() < KEPT_ESCAPES) {
            escapes.add(caseName + ": " + o.detail());
        }
    }

    synchronized void addAll(FuzzTally other) {
        synchronized (other) {
            other.counts.forEach((k, v) -> counts.merge(k, v, Long::sum));
            for (String e : other.escapes) {
                if (escapes.size() < KEPT_ESCAPES) {
                    escapes.add(e);
                }
            }
        }
    }

    synchronized long count(FuzzOutcome.Kind kind) {
        return counts.getOrDefault(kind, 0L);
    }

    synchronized long total() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    /** {@code "1234 cases: CLEAN_ERROR 1000, OPENED_AND_READ 234, ESCAPE 0"} over the given kinds. */
    synchronized String summary(FuzzOutcome.Kind... kinds) {
        StringBuilder b = new StringBuilder().append(total()).append(" cases:");
        for (FuzzOutcome.Kind k : kinds) {
            b.append(' ').append(k).append(' ').append(count(k)).append(',');
        }
        b.setLength(b.length() - 1);
        return b.toString();
    }

    /** The summary and the escapes kept, one a line. */
    synchronized String report(FuzzOutcome.Kind... kinds) {
        StringBuilder b = new StringBuilder(summary(kinds));
        for (String e : escapes) {
            b.append("\n  escape: ").append(e);
        }
        return b.toString();
    }
}
