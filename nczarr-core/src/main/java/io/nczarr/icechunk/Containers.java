package io.nczarr.icechunk;

import io.nczarr.error.NcZarrException;
import io.nczarr.error.Redaction;
import io.nczarr.error.TargetRefusedException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Icechunk's rule for virtual chunks: a location is read only when it lies under a virtual chunk container
 * the user authorized. The repository's configuration declares containers (name → URL prefix); the user
 * authorizes one with {@code icechunk.container.NAME=URL_PREFIX} — the declared prefix to confirm it, another
 * one to map it (locations under the declared prefix are read under the user's prefix instead: the data moved,
 * or is reached another way) — or adds a container the repository does not declare; or by URL prefix with
 * {@code icechunk.container=PREFIX[=READ_PREFIX],...} ({@link #byPrefix}). A location belongs to the container
 * with the longest prefix of it. Immutable.
 */
final class Containers {
    /** The fragment (or option) key prefix: {@code icechunk.container.NAME=URL_PREFIX}. */
    static final String KEY = "icechunk.container.";

    /** The fragment (or option) key of containers authorized by URL prefix: {@code icechunk.container=PREFIX}. */
    static final String PREFIX_KEY = "icechunk.container";

    /** {@code PREFIX=READ_PREFIX}: the second part starts like a URL. */
    private static final Pattern MAPPED = Pattern.compile("(.+?)=([a-zA-Z][a-zA-Z0-9+.-]*:.*)");

    /** A container: what locations start with in the repository, and where they are read (same if not mapped). */
    record Container(String name, String declared, String readAt, boolean authorized) {}

    private final List<Container> containers;

    private Containers(List<Container> containers) {
        containers.sort(
                Comparator.comparingInt((Container c) -> c.declared().length()).reversed());
        this.containers = List.copyOf(containers);
    }

    /**
     * The containers of {@code declared} (from the repository) authorized by {@code parameters}' keys {@code
     * icechunk.container.NAME} (lower-cased keys, as URL fragments are parsed) and {@code icechunk.container}
     * ({@link #byPrefix}).
     */
    static Containers of(Map<String, String> declared, Map<String, String> parameters, String repository)
            throws NcZarrException {
        Map<String, String> user = new TreeMap<>();
        String prefixes = null;
        for (Map.Entry<String, String> e : parameters.entrySet()) {
            String k = e.getKey().toLowerCase(Locale.ROOT);
            if (k.equals(PREFIX_KEY)) {
                prefixes = e.getValue();
            } else if (k.startsWith(KEY) && e.getKey().length() > KEY.length()) {
                user.put(
                        e.getKey().substring(KEY.length()).toLowerCase(Locale.ROOT),
                        e.getValue().trim());
            }
        }
        List<Container> out = new ArrayList<>();
        for (Map.Entry<String, String> d : declared.entrySet()) {
            String given = user.remove(d.getKey().toLowerCase(Locale.ROOT));
            out.add(new Container(
                    d.getKey(), d.getValue(), given == null || given.isEmpty() ? d.getValue() : given, given != null));
        }
        for (Map.Entry<String, String> u : user.entrySet()) {
            if (!u.getValue().isEmpty()) {
                out.add(new Container(u.getKey(), u.getValue(), u.getValue(), true));
            }
        }
        if (prefixes != null) {
            byPrefix(out, prefixes, repository);
        }
        return new Containers(out);
    }

    /**
     * {@code icechunk.container=PREFIX[=READ_PREFIX],...}: containers authorized by URL prefix, for the
     * repositories that name their containers by their prefix (VirtualiZarr 2.x, icechunk's {@code
     * set_virtual_chunk_container}). Each PREFIX authorizes every declared container under it (mapped to the
     * same place under READ_PREFIX when given) and, for locations under PREFIX that lie in no longer declared
     * container, is itself a container named after the declared container with the longest prefix of PREFIX
     * (else after PREFIX). A location is then matched by the longest prefix, as Icechunk does.
     */
    private static void byPrefix(List<Container> out, String value, String repository) throws NcZarrException {
        for (String part : value.split(",")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            Matcher m = MAPPED.matcher(p);
            String prefix = m.matches() ? m.group(1) : p;
            String readAt = m.matches() ? m.group(2) : p;
            if (!prefix.contains(":")) {
                throw new NcZarrException(
                        repository,
                        null,
                        null,
                        PREFIX_KEY + " holds '" + Redaction.redact(p) + "', not a URL prefix",
                        null);
            }
            String name = prefix;
            int longest = -1;
            boolean same = false;
            for (int i = 0; i < out.size(); i++) {
                Container c = out.get(i);
                if (c.declared().startsWith(prefix)
                        && (!c.authorized() || c.readAt().equals(c.declared()))) {
                    out.set(
                            i,
                            new Container(
                                    c.name(),
                                    c.declared(),
                                    readAt + c.declared().substring(prefix.length()),
                                    true));
                    same |= c.declared().equals(prefix);
                }
                if (prefix.startsWith(c.declared()) && c.declared().length() > longest) {
                    longest = c.declared().length();
                    name = c.name();
                }
            }
            if (!same) {
                out.add(new Container(name, prefix, readAt, true));
            }
        }
    }

    /** The URL prefixes the user authorized (where chunks are read): the trust rules allow them. */
    List<String> authorizedPrefixes() {
        List<String> out = new ArrayList<>();
        for (Container c : containers) {
            if (c.authorized()) {
                out.add(c.readAt());
            }
        }
        return out;
    }

    List<Container> all() {
        return containers;
    }

    /**
     * Where {@code location} is read: under an authorized container (mapped if the user mapped it).
     *
     * @throws TargetRefusedException naming the repository, array, chunk and location otherwise
     */
    String resolve(String location, String repository, String array, String key) throws TargetRefusedException {
        for (Container c : containers) {
            if (location.startsWith(c.declared())) {
                if (!c.authorized()) {
                    throw new TargetRefusedException(
                            repository,
                            key,
                            Redaction.redact(location),
                            "virtual chunk of array " + array + " lies in container '" + c.name() + "' ("
                                    + Redaction.redact(c.declared()) + "), which the user has not authorized",
                            KEY + c.name() + "=" + Redaction.redact(c.declared()) + " or " + PREFIX_KEY + "="
                                    + Redaction.redact(c.declared()) + " (or a prefix it is mapped to)");
                }
                return c.readAt() + location.substring(c.declared().length());
            }
        }
        throw new TargetRefusedException(
                repository,
                key,
                Redaction.redact(location),
                "virtual chunk of array " + array + " lies in no virtual chunk container of the repository",
                PREFIX_KEY + "=<URL prefix of the location>");
    }
}
