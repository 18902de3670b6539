package io.nczarr.icechunk;

import io.nczarr.error.NcZarrException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The Icechunk settings of one open: the URL fragment's keys, over the options' (system) properties for hosts
 * whose URLs carry no fragment — {@value #BRANCH}, {@value #TAG}, {@value #SNAPSHOT} (used only when the
 * fragment selects no snapshot) and {@value #CONTAINERS} ({@code NAME=URL_PREFIX,...}, a fragment key {@code
 * icechunk.container.NAME} wins for its name; an entry {@code PREFIX} or {@code PREFIX=READ_PREFIX} whose first
 * part is a URL authorizes by prefix, with the fragment's {@code icechunk.container=...}).
 */
final class Parameters {
    static final String BRANCH = "nczarr.icechunk.branch";
    static final String TAG = "nczarr.icechunk.tag";
    static final String SNAPSHOT = "nczarr.icechunk.snapshot";
    static final String CONTAINERS = "nczarr.icechunk.containers";

    private Parameters() {}

    static Map<String, String> of(Map<String, String> fragment, Function<String, String> properties, String repository)
            throws NcZarrException {
        Map<String, String> out = new LinkedHashMap<>();
        StringBuilder prefixes = new StringBuilder();
        String containers = properties.apply(CONTAINERS);
        if (containers != null) {
            for (String part : containers.split(",")) {
                if (part.isBlank()) {
                    continue;
                }
                int eq = part.indexOf('=');
                if (eq < 0 ? part.contains(":") : part.substring(0, eq).contains(":")) {
                    // a URL prefix (PREFIX or PREFIX=READ_PREFIX): the containers named by their prefix
                    prefixes.append(prefixes.length() == 0 ? "" : ",").append(part.strip());
                    continue;
                }
                if (eq <= 0 || eq == part.length() - 1) {
                    throw new NcZarrException(
                            repository,
                            null,
                            null,
                            CONTAINERS + " holds '" + part.strip() + "', not NAME=URL_PREFIX",
                            null);
                }
                out.put(
                        Containers.KEY + part.substring(0, eq).strip().toLowerCase(Locale.ROOT),
                        part.substring(eq + 1).strip());
            }
        }
        boolean selects =
                fragment.containsKey("branch") || fragment.containsKey("tag") || fragment.containsKey("snapshot");
        if (!selects) {
            for (String k : List.of("branch", "tag", "snapshot")) {
                String v = properties.apply("nczarr.icechunk." + k);
                if (v != null) {
                    out.put(k, v);
                }
            }
        }
        out.putAll(fragment);
        if (prefixes.length() > 0) {
            out.merge(Containers.PREFIX_KEY, prefixes.toString(), (f, p) -> f + "," + p);
        }
        return out;
    }
}
