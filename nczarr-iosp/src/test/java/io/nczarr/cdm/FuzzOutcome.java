package io.nczarr.cdm;

import io.nczarr.error.NcZarrException;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What one fuzz case ended in, and the rule that decides whether a failure is clean: the project's
 * exception, a message that names the dataset (and the chunk key where one is given), and no
 * last-resort guard on the way (a guard catching something means a layer below let it slip).
 */
record FuzzOutcome(Kind kind, String detail) {

    enum Kind {
        /** The project's exception, naming what it must. */
        CLEAN_ERROR,
        /** Opened, and every read returned data. */
        OPENED_AND_READ,
        /** Chunk fuzz: the data read equals the unmodified chunk's. */
        CORRECT_DATA,
        /** Chunk fuzz: different data from a chunk that nothing protects (no checksum, not compressed). */
        DIFFERENT_DATA_ALLOWED,
        /** Anything else: another exception type, an Error, a guard, a wrong message, silent corruption, a hang. */
        ESCAPE
    }

    /**
     * A message longer than this quotes hostile input whole (a message is a log line, not a dump;
     * the detail is bounded at 1,000 characters, the dataset, key and variable come on top).
     */
    static final int MAX_MESSAGE = 2000;

    static FuzzOutcome of(Kind kind) {
        return new FuzzOutcome(kind, "");
    }

    static FuzzOutcome escape(String detail) {
        return new FuzzOutcome(Kind.ESCAPE, detail);
    }

    /**
     * Classifies a failure.
     *
     * @param dataset the store location the message must name
     * @param key a key the message must name too, or {@code null}
     */
    static FuzzOutcome ofFailure(Throwable t, String dataset, String key) {
        if (!(t instanceof NcZarrException e)) {
            return escape(describe(t));
        }
        String m = e.getMessage();
        if (m == null || m.isBlank() || !m.contains(dataset)) {
            return escape("message does not name the dataset: " + describe(t));
        }
        if (m.length() > MAX_MESSAGE) {
            return escape("message of " + m.length() + " characters: " + describe(t));
        }
        if (m.indexOf(dataset) != m.lastIndexOf(dataset)) {
            return escape("message names the dataset twice: " + describe(t));
        }
        if (key != null && !m.contains(key)) {
            return escape("message does not name the key " + key + ": " + describe(t));
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof NcZarrException n && n.detail() != null && isGuard(n.detail())) {
                return escape("caught by a last-resort guard: " + describe(t));
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return new FuzzOutcome(Kind.CLEAN_ERROR, t.getClass().getSimpleName() + ": " + m);
    }

    private static boolean isGuard(String detail) {
        return detail.startsWith(Guard.UNEXPECTED) || detail.startsWith(Guard.CDM_REFUSED);
    }

    /** The exception, its causes and where the innermost one was thrown: enough to find the bug. */
    static String describe(Throwable t) {
        StringBuilder b = new StringBuilder(String.valueOf(t));
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
            b.append(" <- ").append(root);
        }
        String frames = Arrays.stream(root.getStackTrace())
                .limit(6)
                .map(StackTraceElement::toString)
                .collect(Collectors.joining(" | "));
        if (b.length() > 600) {
            b.setLength(600);
            b.append("...");
        }
        return b + " @ " + frames;
    }
}
