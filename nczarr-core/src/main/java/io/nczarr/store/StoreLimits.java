package io.nczarr.store;

import java.io.IOException;

/** Bounds on what a store reads into memory for one object. */
public final class StoreLimits {
    private StoreLimits() {
    }

    /** Largest single object read whole: well above any sane chunk, well below the heap. */
    public static final long DEFAULT_MAX_OBJECT_BYTES = 1L << 30;

    static void checkObjectSize(String location, String key, long size, long max) throws IOException {
        if (size > max || size > Integer.MAX_VALUE - 16) {
            throw new IOException(location + ": object '" + key + "' is " + size
                    + " bytes, more than the limit of " + max + " bytes for one object");
        }
    }
}
