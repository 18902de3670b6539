package io.nczarr.store.kerchunk;

import io.nczarr.error.LimitExceededException;
import io.nczarr.store.ByteLimit;

/**
 * The memory the parsed references of one reference file take, estimated as they are made and checked
 * against a limit before anything proportional is built: a {@code gen} section is checked for its whole
 * expansion before it is expanded, a template before it is substituted, each {@code refs} entry as it is
 * streamed. The estimates are what the JVM holds per reference (the reference, its key, its map entry) and per
 * distinct target URL (its string and its {@link java.net.URI}).
 */
final class ReferenceBudget {
    /** A reference, its map entry and its key string's fixed part. */
    static final long PER_REFERENCE = 120;
    /** A distinct target URL: its strings and its URI's fields (about three copies of its text). */
    static final long PER_URL = 160;

    private final String location;
    private final ByteLimit limit;
    private long used;

    ReferenceBudget(String location, ByteLimit limit) {
        this.location = location;
        this.limit = limit;
    }

    /** An unbounded budget (tests, and callers that bound the document some other way). */
    static ReferenceBudget unbounded(String location) {
        return new ReferenceBudget(location, new ByteLimit("(none)", Long.MAX_VALUE));
    }

    /** Bytes of one reference with a key of {@code keyChars} holding {@code inlineBytes} bytes. */
    static long reference(long keyChars, long inlineBytes) {
        return PER_REFERENCE + keyChars + inlineBytes;
    }

    /** Bytes of one distinct target URL of {@code chars} characters. */
    static long url(long chars) {
        return PER_URL + 3 * chars;
    }

    /** Takes {@code bytes} more. */
    void charge(long bytes, String what) throws LimitExceededException {
        used = bytes > Long.MAX_VALUE - used ? Long.MAX_VALUE : used + bytes;
        if (used > limit.bytes()) {
            throw limit.exceeded(location, null, null, what, used);
        }
    }

    /** Refuses now what {@code bytes} more would exceed, without taking them (they are charged as they come). */
    void check(long bytes, String what) throws LimitExceededException {
        long total = bytes > Long.MAX_VALUE - used ? Long.MAX_VALUE : used + bytes;
        if (total > limit.bytes()) {
            throw limit.exceeded(location, null, null, what, total);
        }
    }
}
