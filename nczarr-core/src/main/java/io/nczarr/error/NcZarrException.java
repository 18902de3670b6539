package io.nczarr.error;

import java.io.IOException;

/**
 * The root of every failure this library reports. An {@link IOException}, so netCDF-Java callers
 * that catch IOException keep working; the accessors give the dataset location (already redacted of
 * credentials), the object key and the variable where they are known, so that a host such as THREDDS
 * can log or map them without parsing the message.
 *
 * <p>The message is {@code dataset: key: variable 'v': detail} with the unknown parts left out.
 */
public class NcZarrException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String dataset;
    private final String key;
    private final String variable;
    private final String detail;

    public NcZarrException(String detail) {
        this(null, null, null, detail, null);
    }

    public NcZarrException(String detail, Throwable cause) {
        this(null, null, null, detail, cause);
    }

    public NcZarrException(String dataset, String key, String variable, String detail, Throwable cause) {
        super(compose(dataset, key, variable, bounded(detail)), cause);
        this.dataset = dataset;
        this.key = key;
        this.variable = variable;
        this.detail = bounded(detail);
    }

    /**
     * Longest detail kept. Details quote the metadata values they refuse, and hostile metadata makes
     * those megabytes long: a message is a log line, not a copy of the input.
     */
    static final int MAX_DETAIL = 1000;

    /** {@code s} with its middle left out when longer than {@link #MAX_DETAIL}; both ends tell what failed. */
    static String bounded(String s) {
        if (s == null || s.length() <= MAX_DETAIL) {
            return s;
        }
        int head = MAX_DETAIL * 2 / 3;
        int tail = MAX_DETAIL / 4;
        if (Character.isHighSurrogate(s.charAt(head - 1))) {
            head--;
        }
        if (Character.isLowSurrogate(s.charAt(s.length() - tail))) {
            tail--;
        }
        return s.substring(0, head) + "...(" + (s.length() - head - tail) + " characters left out)..."
                + s.substring(s.length() - tail);
    }

    /** The dataset location as given by the user, with credentials removed; null when not known. */
    public String dataset() {
        return dataset;
    }

    /** The object key inside the dataset (e.g. {@code temp/0.1}); null when not known. */
    public String key() {
        return key;
    }

    /** The variable's full name; null when not known. */
    public String variable() {
        return variable;
    }

    /** What went wrong, without the dataset, key and variable. */
    public String detail() {
        return detail;
    }

    /**
     * The same failure, of the same type, with the dataset, key and variable filled in where this one
     * has none. Subtypes override it so that a caller higher up can add context without losing the
     * type (a chunk decode failure stays a {@link CodecException} up to the user).
     */
    public NcZarrException withContext(String dataset, String key, String variable) {
        return new NcZarrException(
                or(this.dataset, dataset), or(this.key, key), or(this.variable, variable), detail, this);
    }

    protected static String or(String mine, String given) {
        return mine != null ? mine : given;
    }

    static String compose(String dataset, String key, String variable, String detail) {
        StringBuilder b = new StringBuilder();
        if (dataset != null && !dataset.isEmpty()) {
            b.append(dataset).append(": ");
        }
        if (key != null && !key.isEmpty()) {
            b.append(key).append(": ");
        }
        if (variable != null && !variable.isEmpty()) {
            b.append("variable '").append(variable).append("': ");
        }
        return b.append(detail == null ? "" : detail).toString();
    }
}
