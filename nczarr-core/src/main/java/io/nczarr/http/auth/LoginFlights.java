package io.nczarr.http.auth;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Single-flight logins: while one read logs in at a login host for a data host, the other reads redirected there
 * wait for it (bounded) and then use the session cookie it got, instead of each logging in again. One per {@link
 * HttpAuth}; keyed by login host and data origin.
 */
final class LoginFlights {
    /** How a read's turn at a login went. */
    enum Turn {
        /** This read logs in; it must {@link #end} the flight. */
        LEAD,
        /** Another read's login ended while this one waited. */
        WAITED,
        /** Another read's login did not end in time: this one goes on its own. */
        TIMED_OUT
    }

    private final Map<String, CountDownLatch> flying = new HashMap<>();

    /** Leads the login of {@code key}, or waits up to {@code wait} for the one under way. */
    Turn enter(String key, Duration wait) throws InterruptedIOException {
        CountDownLatch other;
        synchronized (this) {
            other = flying.get(key);
            if (other == null) {
                flying.put(key, new CountDownLatch(1));
                return Turn.LEAD;
            }
        }
        try {
            return other.await(wait.toMillis(), TimeUnit.MILLISECONDS) ? Turn.WAITED : Turn.TIMED_OUT;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException io = new InterruptedIOException("interrupted while waiting for a login");
            io.initCause(e);
            throw io;
        }
    }

    /** Ends the login of {@code key} this read led; the waiting reads go on. */
    void end(String key) {
        CountDownLatch done;
        synchronized (this) {
            done = flying.remove(key);
        }
        if (done != null) {
            done.countDown();
        }
    }

    /** Logins under way (tests). */
    synchronized int flying() {
        return flying.size();
    }
}
