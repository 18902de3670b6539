package io.nczarr.error;

/**
 * A URL found inside a document (a kerchunk reference target, an aggregation fragment, a CFA {@code file}) that
 * the trust policy does not let that document reach: a local file named by a remote document, a local file
 * outside the allowed roots, a loopback, link-local or private host, a file that is not a regular file. The
 * message names the document (redacted), the key, the target (redacted) and the option that would allow it
 * ({@link #option()}); nothing was opened or connected to.
 */
public class TargetRefusedException extends NcZarrException {
    private static final long serialVersionUID = 1L;

    private final String target;
    private final String option;

    /**
     * @param document the document that names the target (redacted by the caller), or null
     * @param key the key or fragment being read, or null
     * @param target the target as named (redacted here)
     * @param why why it is refused
     * @param option the setting that would allow it, or null when nothing does (a FIFO, a device)
     */
    public TargetRefusedException(String document, String key, String target, String why, String option) {
        this(document, key, null, Redaction.redact(target), why, option, null);
    }

    private TargetRefusedException(
            String document, String key, String variable, String target, String why, String option, Throwable cause) {
        super(document, key, variable, detail(target, why, option), cause);
        this.target = target;
        this.option = option;
    }

    private static String detail(String target, String why, String option) {
        return "refused target " + target + ": " + why + (option == null ? "" : " (to allow it, set " + option + ")");
    }

    /** The refused target, redacted. */
    public String target() {
        return target;
    }

    /** The option that would allow the target, or null. */
    public String option() {
        return option;
    }

    @Override
    public TargetRefusedException withContext(String dataset, String key, String variable) {
        String d = detail();
        String prefix = "refused target " + target + ": ";
        String why = d.startsWith(prefix) ? d.substring(prefix.length()) : d;
        String suffix = option == null ? "" : " (to allow it, set " + option + ")";
        if (!suffix.isEmpty() && why.endsWith(suffix)) {
            why = why.substring(0, why.length() - suffix.length());
        }
        return new TargetRefusedException(
                or(dataset(), dataset), or(key(), key), or(variable(), variable), target, why, option, this);
    }
}
