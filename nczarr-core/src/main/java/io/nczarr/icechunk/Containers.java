package io.nczarr.icechunk;

import io.nczarr.error.Redaction;
import io.nczarr.error.TargetRefusedException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Icechunk's rule for virtual chunks: a location is read only when it lies under a virtual chunk container
 * the user authorized. The repository's configuration declares containers (name → URL prefix); the user
 * authorizes one with {@code icechunk.container.NAME=URL_PREFIX} — the declared prefix to confirm it, another
 * one to map it (locations under the declared prefix are read under the user's prefix instead: the data moved,
 * or is reached another way) — or adds a container the repository does not declare. Immutable.
 */
final class Containers {
    /** The fragment (or option) key prefix: {@code icechunk.container.NAME=URL_PREFIX}. */
    static final String KEY = "icechunk.container.";

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
     * icechunk.container.NAME} (lower-cased keys, as URL fragments are parsed).
     */
    static Containers of(Map<String, String> declared, Map<String, String> parameters) {
        Map<String, String> user = new TreeMap<>();
        for (Map.Entry<String, String> e : parameters.entrySet()) {
            if (e.getKey().toLowerCase(Locale.ROOT).startsWith(KEY)
                    && e.getKey().length() > KEY.length()) {
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
        return new Containers(out);
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
                            KEY + c.name() + "=" + Redaction.redact(c.declared()) + " (or a prefix it is mapped to)");
                }
                return c.readAt() + location.substring(c.declared().length());
            }
        }
        throw new TargetRefusedException(
                repository,
                key,
                Redaction.redact(location),
                "virtual chunk of array " + array + " lies in no virtual chunk container of the repository",
                KEY + "NAME=<URL prefix of the location>");
    }
}
