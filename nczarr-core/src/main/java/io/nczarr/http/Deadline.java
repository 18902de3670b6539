package io.nczarr.http;

import java.time.Duration;

/**
 * A moment on the {@link System#nanoTime()} clock by which something must be done, and the time it was given
 * (for messages): the one deadline notion of every remote read. {@link RetryPolicy} gives each attempt one (its
 * own limit or what is left of the whole request's, whichever comes first); S3 requests pass it to the SDK and
 * the body watchdog, HTTP requests to {@link TimedExchange}. Immutable.
 */
public final class Deadline {
    private final long endNanos;
    private final long givenMillis;

    private Deadline(long endNanos, long givenMillis) {
        this.endNanos = endNanos;
        this.givenMillis = givenMillis;
    }

    /** {@code millis} from now. */
    public static Deadline in(long millis) {
        return new Deadline(System.nanoTime() + millis * 1_000_000L, millis);
    }

    /** {@code millis} from now, or this deadline if that comes first. */
    public Deadline within(long millis) {
        Deadline d = in(millis);
        return d.endNanos - endNanos <= 0 ? d : new Deadline(endNanos, remainingMillis());
    }

    public long remainingNanos() {
        return Math.max(0, endNanos - System.nanoTime());
    }

    /** What is left, rounded up (a deadline 0.3 ms away is not yet passed). */
    public long remainingMillis() {
        return (remainingNanos() + 999_999) / 1_000_000;
    }

    /** What is left, at least one millisecond (the SDK refuses a zero time-out). */
    public Duration remaining() {
        return Duration.ofMillis(Math.max(1, remainingMillis()));
    }

    public boolean passed() {
        return remainingNanos() == 0;
    }

    /** The time this deadline was given when it was made. */
    public long givenMillis() {
        return givenMillis;
    }
}
