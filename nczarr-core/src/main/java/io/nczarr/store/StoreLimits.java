package io.nczarr.store;

/** Rules every store applies to what it is asked: the ranges it accepts, the default object bound. */
public final class StoreLimits {
    private StoreLimits() {}

    /**
     * Largest single object read whole by default on a large heap; on a smaller one the default is a
     * quarter of the heap ({@link MemoryLimits#forHeap}).
     */
    public static final long DEFAULT_MAX_OBJECT_BYTES = 1L << 30;

    /**
     * The same rule for every store's {@link Store#getRange}: a negative offset or length is a
     * caller's mistake, not an empty result.
     */
    static void checkRange(long offset, int length) {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("negative range: offset " + offset + ", length " + length);
        }
    }
}
