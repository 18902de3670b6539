package io.nczarr.error;

/**
 * Reading would hold more bytes in memory than a configured limit allows: an object read whole, a
 * decoded chunk, a metadata object or the result of a read. Checked before the memory is taken, so
 * hostile or mistaken sizes in a dataset cannot exhaust the heap. {@link #property()} names the system
 * property that sets the limit and {@link #limit()} its current value; the message says both, so the
 * user knows what to raise. Not retryable: the same read needs the same memory.
 */
public class LimitExceededException extends NcZarrException {
    private static final long serialVersionUID = 1L;

    private final String property;
    private final long limit;
    private final long size;

    /**
     * @param what what needs the memory, e.g. {@code "object"} or {@code "one decoded chunk"}
     * @param size bytes needed, or {@code -1} when only known to be more than {@code limit}
     * @param property the system property that sets the limit
     * @param limit the limit in bytes
     * @param cause what revealed it (a codec or a server that reached the bound), or {@code null}
     */
    public LimitExceededException(
            String dataset,
            String key,
            String variable,
            String what,
            long size,
            String property,
            long limit,
            Throwable cause) {
        this(dataset, key, variable, size, property, limit, describe(what, size, property, limit), cause);
    }

    private LimitExceededException(
            String dataset,
            String key,
            String variable,
            long size,
            String property,
            long limit,
            String detail,
            Throwable cause) {
        super(dataset, key, variable, detail, cause);
        this.property = property;
        this.limit = limit;
        this.size = size;
    }

    /**
     * The heap ran out while reading ({@code cause}, often in a pool thread): the same kind of refusal as a
     * limit, at the caller, naming the budget that bounds what each thread holds and the heap.
     *
     * @param what what was being done, e.g. {@code "the metadata walk"}
     * @param property the budget to lower so that less is held at once
     * @param limit that budget's current value
     */
    public static LimitExceededException outOfMemory(
            String dataset, String key, String variable, String what, String property, long limit, Throwable cause) {
        String detail = what + " ran out of Java heap (max "
                + bytes(Runtime.getRuntime().maxMemory())
                + "); lower " + property + "=" + limit + " or the threads that read in parallel"
                + " (nczarr.decodeThreads), or give the JVM more heap (-Xmx)";
        // the OutOfMemoryError is kept as a suppressed exception, not as the cause: what the caller gets is this
        // refusal, with nothing in its cause chain that says the JVM is in trouble
        LimitExceededException e =
                new LimitExceededException(dataset, key, variable, -1, property, limit, detail, null);
        if (cause != null) {
            e.addSuppressed(cause);
        }
        return e;
    }

    /** The system property that sets the limit, e.g. {@code nczarr.limits.maxChunkBytes}. */
    public String property() {
        return property;
    }

    /** The limit in bytes. */
    public long limit() {
        return limit;
    }

    /** The bytes that were needed, or {@code -1} when only known to be more than {@link #limit()}. */
    public long size() {
        return size;
    }

    @Override
    public LimitExceededException withContext(String dataset, String key, String variable) {
        return new LimitExceededException(
                or(dataset(), dataset),
                or(key(), key),
                or(variable(), variable),
                size,
                property,
                limit,
                detail(),
                this);
    }

    private static String describe(String what, long size, String property, long limit) {
        String needs = size < 0 ? "" : bytes(size) + ", ";
        return what + " needs " + needs + "more than the limit of " + bytes(limit) + " set by " + property + "=" + limit
                + " (raise that system property to allow it)";
    }

    /** {@code "1073741824 bytes (1.0 GiB)"}: exact, and readable. */
    static String bytes(long n) {
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        if (n < 1024) {
            return n + " bytes";
        }
        double v = n;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return n + " bytes (" + String.format(java.util.Locale.ROOT, "%.1f", v) + " " + units[u] + ")";
    }
}
