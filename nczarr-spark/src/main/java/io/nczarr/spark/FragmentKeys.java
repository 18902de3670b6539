package io.nczarr.spark;

import io.nczarr.error.NcZarrException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The data source options the core reads as URL fragment keys, appended to the path's fragment: {@code aws.*},
 * {@code nczarr.*}, {@code icechunk.*}, {@code mode} and the Icechunk snapshot selection ({@code branch}, {@code
 * tag}, {@code snapshot}). The Icechunk options of the system-property form are translated to the fragment's:
 * {@code nczarr.icechunk.tag} (branch, snapshot) selects the snapshot unless the path's fragment already selects
 * one, and {@code nczarr.icechunk.containers} ({@code NAME=URL_PREFIX,...}) authorizes virtual chunk containers
 * as {@code icechunk.container.NAME} keys do. A key the path's fragment already has is not repeated (the path
 * wins).
 */
final class FragmentKeys {
    private FragmentKeys() {}

    private static final List<String> SELECTION = List.of("branch", "tag", "snapshot");
    private static final String ICECHUNK = "nczarr.icechunk.";

    /** {@code path} with the pass-through options of {@code lower} (lower-cased keys) in its fragment. */
    static String url(String path, Map<String, String> lower) throws NcZarrException {
        StringBuilder url = new StringBuilder(path);
        int hash = path.indexOf('#');
        String fragment = hash < 0 ? "" : path.substring(hash + 1).toLowerCase(Locale.ROOT);
        boolean selects = false;
        for (String k : SELECTION) {
            selects |= has(fragment, k);
        }
        boolean[] any = {hash >= 0};
        for (Map.Entry<String, String> e : lower.entrySet()) {
            String k = e.getKey();
            String v = e.getValue() == null ? "" : e.getValue().trim();
            if (k.equals(ICECHUNK + "containers")) {
                for (String part : v.split(",")) {
                    int eq = part.indexOf('=');
                    if (part.isBlank()) {
                        continue;
                    }
                    if (eq <= 0 || eq == part.length() - 1) {
                        throw new NcZarrException(
                                "option " + k + " holds '" + part.strip() + "', not NAME=URL_PREFIX (comma-separated)");
                    }
                    String key = "icechunk.container."
                            + part.substring(0, eq).strip().toLowerCase(Locale.ROOT);
                    append(url, fragment, any, key, part.substring(eq + 1).strip());
                }
            } else if (k.startsWith(ICECHUNK) && SELECTION.contains(k.substring(ICECHUNK.length()))) {
                if (!selects) {
                    append(url, fragment, any, k.substring(ICECHUNK.length()), v);
                }
            } else if (SELECTION.contains(k)) {
                if (!selects) {
                    append(url, fragment, any, k, v);
                }
            } else if (k.startsWith("aws.")
                    || k.startsWith("nczarr.")
                    || k.startsWith("icechunk.")
                    || k.equals("mode")
                    || k.equals("awsprofile")) {
                append(url, fragment, any, k, v);
            }
        }
        return url.toString();
    }

    private static void append(StringBuilder url, String fragment, boolean[] any, String key, String value) {
        if (has(fragment, key)) {
            return;
        }
        url.append(any[0] ? '&' : '#').append(key).append('=').append(value);
        any[0] = true;
    }

    /** Whether a fragment ({@code a=1&b}) has the key. */
    private static boolean has(String fragment, String key) {
        for (String part : fragment.split("&")) {
            int eq = part.indexOf('=');
            if ((eq < 0 ? part : part.substring(0, eq)).trim().equals(key)) {
                return true;
            }
        }
        return false;
    }
}
