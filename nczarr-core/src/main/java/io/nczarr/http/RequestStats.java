package io.nczarr.http;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Request counters of a {@link RangeSource}, for tests, benchmarks and diagnostics. Thread-safe;
 * {@link #snapshot()} gives a consistent-enough copy to compare before/after an operation.
 */
public final class RequestStats {
    private final AtomicLong gets = new AtomicLong();
    private final AtomicLong heads = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();

    /** An immutable copy of the counters. */
    public record Snapshot(long gets, long heads, long bytes, long retries) {
        /** Requests of any kind. */
        public long requests() {
            return gets + heads;
        }

        /** The counters accumulated since {@code before}. */
        public Snapshot minus(Snapshot before) {
            return new Snapshot(
                    gets - before.gets, heads - before.heads, bytes - before.bytes, retries - before.retries);
        }

        @Override
        public String toString() {
            return gets + " GET, " + heads + " HEAD, " + bytes + " bytes, " + retries + " retries";
        }
    }

    /** Counts one GET request sent (every attempt counts, retries included). */
    public void countGet() {
        gets.incrementAndGet();
    }

    /** Counts one HEAD request sent. */
    public void countHead() {
        heads.incrementAndGet();
    }

    /** Counts body bytes received (including bytes received and then discarded). */
    public void countBytes(long n) {
        bytes.addAndGet(n);
    }

    /** Counts one retried attempt. */
    public void countRetry() {
        retries.incrementAndGet();
    }

    public long gets() {
        return gets.get();
    }

    public long heads() {
        return heads.get();
    }

    public long bytes() {
        return bytes.get();
    }

    public long retries() {
        return retries.get();
    }

    public Snapshot snapshot() {
        return new Snapshot(gets.get(), heads.get(), bytes.get(), retries.get());
    }

    @Override
    public String toString() {
        return snapshot().toString();
    }
}
