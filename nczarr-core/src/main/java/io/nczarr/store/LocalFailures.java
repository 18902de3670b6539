package io.nczarr.store;

import io.nczarr.error.NcZarrException;
import io.nczarr.error.StoreException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.Locale;

/**
 * Turns the I/O failures of local stores (directory, zip) into {@link StoreException}s naming the
 * store and the key. A local read that failed once fails again, so they are not retryable unless
 * the operating system says the condition is temporary.
 */
final class LocalFailures {
    private LocalFailures() {}

    /** Error texts of conditions that pass by themselves (EAGAIN, EINTR, ENFILE/EMFILE, ESTALE). */
    private static final String[] TRANSIENT = {
        "resource temporarily unavailable", "interrupted system call", "too many open files", "stale file handle"
    };

    /**
     * The failure to throw for {@code e}: already typed failures and interruptions (the reader was
     * cancelled, the store is fine) pass unchanged.
     */
    static IOException of(String location, String key, String what, IOException e) {
        if (e instanceof NcZarrException
                || e instanceof InterruptedIOException
                || e instanceof ClosedByInterruptException) {
            return e;
        }
        return new StoreException(location, key, what + ": " + describe(e), isTransient(e), e);
    }

    static boolean isTransient(IOException e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        for (String t : TRANSIENT) {
            if (m.contains(t)) {
                return true;
            }
        }
        return false;
    }

    /** The exception's class and message: "AccessDeniedException: /data/x" says more than "/data/x". */
    private static String describe(IOException e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
