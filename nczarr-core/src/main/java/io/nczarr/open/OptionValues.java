package io.nczarr.open;

import io.nczarr.error.NcZarrException;
import io.nczarr.s3.AwsEnvironment;

/** Typed reads of the option properties of an environment; every bad value is an error naming the property. */
final class OptionValues {
    private final AwsEnvironment environment;

    OptionValues(AwsEnvironment environment) {
        this.environment = environment;
    }

    /** A {@code true}/{@code false} property (any case); anything else is a mistake, not {@code false}. */
    boolean flag(String name, boolean dflt) throws NcZarrException {
        String v = environment.property(name);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        String t = v.trim();
        if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(t);
        }
        throw new NcZarrException("system property " + name + " must be true or false, not '" + v + "'");
    }

    /** A byte count property: digits with an optional binary suffix k, m, g or t ({@code 512m}). */
    long bytes(String name, long dflt, long max) throws NcZarrException {
        String v = environment.property(name);
        if (v == null) {
            return dflt;
        }
        String t = v.trim().toLowerCase(java.util.Locale.ROOT);
        int shift = t.isEmpty() ? 0 : "kmgt".indexOf(t.charAt(t.length() - 1)) + 1;
        String digits = shift > 0 ? t.substring(0, t.length() - 1) : t;
        long n;
        try {
            n = Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new NcZarrException(
                    "system property " + name + " must be a number of bytes (e.g. 1048576 or 512m), not '" + v + "'");
        }
        long bytes = n > (Long.MAX_VALUE >> (10 * shift)) ? Long.MAX_VALUE : n << (10 * shift);
        if (n < 1 || bytes > max) {
            throw new NcZarrException("system property " + name + " must be 1.." + max + " bytes, not " + v);
        }
        return bytes;
    }

    static int check(String name, int n) throws NcZarrException {
        if (n < 1 || n > NcZarrOptions.MAX_THREADS) {
            throw new NcZarrException(name + " must be 1.." + NcZarrOptions.MAX_THREADS + ", not " + n);
        }
        return n;
    }

    long number(String name, long dflt, long min, long max) throws NcZarrException {
        String v = environment.property(name);
        if (v == null) {
            return dflt;
        }
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new NcZarrException("system property " + name + " must be a whole number, not '" + v + "'");
        }
        if (n < min || n > max) {
            throw new NcZarrException("system property " + name + " must be " + min + ".." + max + ", not " + n);
        }
        return n;
    }
}
