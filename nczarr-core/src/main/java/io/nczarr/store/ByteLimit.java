package io.nczarr.store;

import io.nczarr.error.LimitExceededException;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.UnsupportedFeatureException;
import java.util.Objects;

/**
 * One memory limit: at most {@code bytes} for one thing, set by the system property {@code property}.
 * Carrying the property lets every refusal tell the user what to raise. See {@link MemoryLimits} for
 * the limits there are.
 *
 * @param property the system property that sets the limit (for messages)
 * @param bytes the limit, at least 1
 */
public record ByteLimit(String property, long bytes) {
    public ByteLimit {
        Objects.requireNonNull(property, "property");
        if (bytes < 1) {
            throw new IllegalArgumentException(property + " must be positive, not " + bytes);
        }
    }

    /**
     * Refuses {@code size} bytes if they are more than the limit.
     *
     * @param what what needs the memory, for the message (e.g. {@code "zip entry 'v/0'"})
     * @throws LimitExceededException naming the dataset, key, variable and the property
     */
    public void check(String dataset, String key, String variable, String what, long size)
            throws LimitExceededException {
        if (size > bytes) {
            throw exceeded(dataset, key, variable, what, size);
        }
    }

    /**
     * {@link #check} for bytes that go into one Java array: also refuses what no array can hold,
     * whatever the limit.
     *
     * @throws UnsupportedFeatureException for more than {@link MemoryLimits#MAX_ARRAY_BYTES}
     */
    public void checkArray(String dataset, String key, String variable, String what, long size) throws NcZarrException {
        check(dataset, key, variable, what, size);
        if (size > MemoryLimits.MAX_ARRAY_BYTES) {
            throw new UnsupportedFeatureException(
                    dataset,
                    key,
                    variable,
                    "objects of 2 GiB or more",
                    what + " is " + size + " bytes, more than one Java array holds",
                    null);
        }
    }

    /** The refusal of {@code size} bytes ({@code -1}: more than the limit, exact size unknown). */
    public LimitExceededException exceeded(String dataset, String key, String variable, String what, long size) {
        return exceeded(dataset, key, variable, what, size, null);
    }

    /** The refusal of {@code size} bytes, found out by {@code cause} (a codec or a server that reached the bound). */
    public LimitExceededException exceeded(
            String dataset, String key, String variable, String what, long size, Throwable cause) {
        return new LimitExceededException(dataset, key, variable, what, size, property, bytes, cause);
    }

    /** The stricter of this limit and {@code other} (this one on a tie). */
    public ByteLimit atMost(ByteLimit other) {
        return other.bytes < bytes ? other : this;
    }
}
