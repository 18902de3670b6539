package io.nczarr.store;

import io.nczarr.error.StoreException;

/** Bounds on what a store reads into memory for one object, and on the ranges it accepts. */
public final class StoreLimits {
    private StoreLimits() {}

    /** Largest single object read whole: well above any sane chunk, well below the heap. */
    public static final long DEFAULT_MAX_OBJECT_BYTES = 1L << 30;

    /** Refuses an object too large to read whole; asking again will not help, so not retryable. */
    static void checkObjectSize(String location, String key, long size, long max) throws StoreException {
        if (size > max || size > Integer.MAX_VALUE - 16) {
            throw new StoreException(
                    location,
                    key,
                    "object is " + size + " bytes, more than the limit of " + max + " bytes for one object",
                    false,
                    null);
        }
    }

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
