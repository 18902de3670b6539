package io.nczarr.raf;

import io.nczarr.error.NcZarrException;
import io.nczarr.error.StoreException;
import io.nczarr.source.SourceFailures;
import java.io.IOException;
import java.io.InterruptedIOException;

/** Shapes {@link StoreException}s the same way wherever this package makes them. */
final class StoreFailures {
    private StoreFailures() {}

    /** The message without its leading {@code location: }, which the dataset field holds instead. */
    static String detail(String location, String message) {
        return SourceFailures.detail(location, message);
    }

    /**
     * Another thread's failure, to be thrown on this one (which waited for the same bytes): the same
     * type for this library's exceptions, else a {@link StoreException}. An interrupt of the other
     * thread is retryable here: this thread was not interrupted, and a new request may well succeed.
     */
    static IOException rethrown(String location, IOException failure) {
        if (failure instanceof NcZarrException nz) {
            return nz.withContext(location, null, null);
        }
        return new StoreException(
                location,
                null,
                detail(location, failure.getMessage()),
                failure instanceof InterruptedIOException,
                failure);
    }
}
