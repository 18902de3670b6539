package io.nczarr.source;

import java.net.URI;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * What the user allows documents to reach beyond the default trust rules ({@link Trust}), each a system
 * property (of the options' environment) or a fragment key of the same name on the URL the user gives
 * (never on a URL found inside a document). Lists are comma-separated.
 *
 * @param allow URL prefixes any document may name ({@value #ALLOW}): {@code http://10.0.0.5:9000/data/},
 *     {@code file:///data/archive/}, {@code s3://bucket/prefix/}
 * @param localRoots directories local documents may name files in, besides their own directory tree
 *     ({@value #LOCAL_ROOTS}): {@code /data,/scratch/nc}
 * @param credentials URL prefixes the user's S3 credentials are also sent to when a document names them
 *     ({@value #CREDENTIALS}); by default only the endpoint and bucket of the URL the user gave
 */
public record TrustSettings(List<String> allow, List<Path> localRoots, List<String> credentials) {
    public static final String ALLOW = "nczarr.trust.allow";
    public static final String LOCAL_ROOTS = "nczarr.trust.localRoots";
    public static final String CREDENTIALS = "nczarr.trust.credentials";

    public TrustSettings {
        allow = List.copyOf(allow);
        localRoots = List.copyOf(localRoots);
        credentials = List.copyOf(credentials);
    }

    /** Nothing beyond the default rules. */
    public static TrustSettings defaults() {
        return new TrustSettings(List.of(), List.of(), List.of());
    }

    /**
     * The settings of these properties. {@code allowLocalFragments} is the old {@code
     * nczarr.aggregation.allowLocalFragments=true}: every local file ({@code file:/}) on the allow list.
     *
     * @throws IllegalArgumentException for a prefix that is not a URL or a root that is not an absolute path
     */
    public static TrustSettings from(Function<String, String> properties, boolean allowLocalFragments) {
        List<String> allow = prefixes(ALLOW, properties.apply(ALLOW));
        if (allowLocalFragments) {
            allow.add("file:/");
        }
        return new TrustSettings(
                allow, roots(properties.apply(LOCAL_ROOTS)), prefixes(CREDENTIALS, properties.apply(CREDENTIALS)));
    }

    /** These settings widened by the fragment keys of the URL the user gave (lower-case keys). */
    public TrustSettings plus(Map<String, String> userFragment) {
        String a = userFragment.get(ALLOW.toLowerCase(Locale.ROOT));
        String r = userFragment.get(LOCAL_ROOTS.toLowerCase(Locale.ROOT));
        String c = userFragment.get(CREDENTIALS.toLowerCase(Locale.ROOT));
        if (a == null && r == null && c == null) {
            return this;
        }
        List<String> allow2 = new ArrayList<>(allow);
        allow2.addAll(prefixes(ALLOW, a));
        List<Path> roots2 = new ArrayList<>(localRoots);
        roots2.addAll(roots(r));
        List<String> cred2 = new ArrayList<>(credentials);
        cred2.addAll(prefixes(CREDENTIALS, c));
        return new TrustSettings(allow2, roots2, cred2);
    }

    /** Whether {@code target} starts with one of the allowed prefixes. */
    public boolean allows(URI target) {
        return matches(allow, target);
    }

    /** Whether the user bound credentials to a prefix of {@code target}. */
    public boolean bindsCredentials(URI target) {
        return matches(credentials, target);
    }

    private static boolean matches(List<String> prefixes, URI target) {
        if (prefixes.isEmpty()) {
            return false;
        }
        boolean file = "file".equalsIgnoreCase(target.getScheme());
        Path path = file ? LocalTargets.pathOf(target) : null;
        String t = file ? null : canonical(target.toString());
        for (String p : prefixes) {
            if (p.regionMatches(true, 0, "file:", 0, 5)) {
                if (path != null && LocalTargets.real(path).startsWith(LocalTargets.real(Paths.get(URI.create(p))))) {
                    return true;
                }
            } else if (t != null && t.startsWith(canonical(p))) {
                return true;
            }
        }
        return false;
    }

    /** Scheme and authority in lower case, the rest as written, without fragment. */
    static String canonical(String url) {
        int hash = url.indexOf('#');
        String u = hash >= 0 ? url.substring(0, hash) : url;
        int sep = u.indexOf("://");
        if (sep < 0) {
            return u;
        }
        int slash = u.indexOf('/', sep + 3);
        int end = slash < 0 ? u.length() : slash;
        return u.substring(0, end).toLowerCase(Locale.ROOT) + u.substring(end);
    }

    private static List<String> prefixes(String name, String value) {
        List<String> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        for (String s : value.split(",")) {
            String p = s.trim();
            if (p.isEmpty()) {
                continue;
            }
            try {
                URI u = URI.create(p);
                if (u.getScheme() == null) {
                    throw new IllegalArgumentException("no scheme");
                }
                if (u.getScheme().equalsIgnoreCase("file")) {
                    Paths.get(u);
                }
            } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
                throw new IllegalArgumentException(name + ": '" + p
                        + "' is not a URL prefix (file:///dir/, http://host:port/path/, s3://bucket/)");
            }
            out.add(p);
        }
        return out;
    }

    private static List<Path> roots(String value) {
        List<Path> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        for (String s : value.split(",")) {
            String r = s.trim();
            if (r.isEmpty()) {
                continue;
            }
            Path p = r.startsWith("file:") ? Paths.get(URI.create(r)) : Paths.get(r);
            if (!p.isAbsolute()) {
                throw new IllegalArgumentException(LOCAL_ROOTS + ": '" + r + "' is not an absolute path");
            }
            out.add(p.normalize());
        }
        return out;
    }
}
