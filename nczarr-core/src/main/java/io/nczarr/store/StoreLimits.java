package io.nczarr.store;

/** Rules every store applies to what it is asked (the sizes it may read are {@link MemoryLimits}). */
public final class StoreLimits {
    private StoreLimits() {}

    /**
     * The same rule for every store's {@link Store#getRange}: a negative offset or length is a
     * caller's mistake, not an empty result.
     */
    public static void checkRange(long offset, int length) {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("negative range: offset " + offset + ", length " + length);
        }
    }
}
