package io.nczarr.aggregation;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;

/**
 * Resolves a fragment URI (CF-1.13 {@code uris}, CFA {@code file}) against the aggregation file's
 * location, RFC 3986 style: absolute {@code file://}, {@code http(s)://} and {@code s3://} URIs stand
 * as written, anything else is relative to the aggregation file (an absolute path too, as CFA writes
 * them, when the aggregation file is local). A fragment of a remote aggregation inherits the
 * aggregation URL's {@code #...} settings ({@code mode=bytes,s3&aws.profile=...}) when it is relative;
 * an absolute remote URI without its own {@code #...} is read with {@code #mode=bytes}. Pure string
 * work, no file access.
 */
public final class FragmentUris {
    private FragmentUris() {}

    /**
     * A resolved fragment: {@code uri} (no {@code #...}, used for the cache and cycle checks) and what
     * to open ({@code location}: a local path when {@code local}, else a URL with its {@code #...}).
     */
    public record Resolved(String uri, boolean local, String location) {}

    /** Why a fragment URI is refused; the binding adds dataset, variable and fragment. */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String what) {
            super(what);
        }
    }

    /**
     * @param base the aggregation file as opened: a local path, {@code file:} URI, or a remote URL with an
     *     optional {@code #...}
     * @param uri the fragment URI as written
     * @param allowLocalFromRemote whether a remote aggregation file may name local files
     */
    public static Resolved resolve(String base, String uri, boolean allowLocalFromRemote) throws Refused {
        if (uri == null || uri.isBlank()) {
            throw new Refused("the fragment has no URI");
        }
        String u = uri.trim();
        String baseFragment = "";
        String b = base;
        int hash = base.indexOf('#');
        if (hash >= 0 && (isRemote(base) || base.startsWith("file:"))) {
            baseFragment = isRemote(base) ? base.substring(hash) : "";
            b = base.substring(0, hash);
        }
        URI baseUri = baseUri(b);
        boolean remoteBase = !"file".equals(baseUri.getScheme());
        String ownFragment = "";
        int h = u.indexOf('#');
        if (h >= 0) {
            ownFragment = u.substring(h);
            u = u.substring(0, h);
        }
        URI ref;
        try {
            ref = new URI(u);
        } catch (URISyntaxException e) {
            if (remoteBase || u.contains("://")) {
                throw new Refused("the fragment URI '" + uri + "' is not a valid URI: " + e.getMessage());
            }
            // a plain local path with characters a URI must escape
            Path dir = Paths.get(baseUri).getParent();
            ref = (u.startsWith("/") || dir == null ? Paths.get(u) : dir.resolve(u)).toUri();
        }
        URI resolved;
        String scheme = ref.getScheme() == null ? null : ref.getScheme().toLowerCase(Locale.ROOT);
        if (scheme == null) {
            if (!remoteBase && u.startsWith("/")) {
                resolved = Paths.get(u).toUri();
            } else {
                resolved = baseUri.resolve(ref);
            }
        } else if (scheme.equals("file") || scheme.equals("http") || scheme.equals("https") || scheme.equals("s3")) {
            resolved = ref;
        } else {
            throw new Refused("the fragment URI '" + uri + "' has the scheme " + scheme
                    + " (only file, http, https and s3 are read)");
        }
        resolved = resolved.normalize();
        boolean local = "file".equalsIgnoreCase(resolved.getScheme());
        if (local && remoteBase && !allowLocalFromRemote) {
            throw new Refused("the fragment URI '" + uri + "' names a local file but the aggregation file is remote"
                    + " (set nczarr.aggregation.allowLocalFragments=true to allow)");
        }
        String plain = resolved.toString();
        if (sameResource(plain, baseUri.normalize().toString())) {
            throw new Refused("the fragment URI '" + uri + "' is the aggregation file itself (a cyclic aggregation)");
        }
        if (local) {
            return new Resolved(plain, true, Paths.get(resolved).toString());
        }
        String fragment = !ownFragment.isEmpty()
                ? ownFragment
                : (scheme == null && remoteBase && !baseFragment.isEmpty() ? baseFragment : "#mode=bytes");
        return new Resolved(plain, false, plain + fragment);
    }

    /** Whether two resolved URIs name the same file ({@code file:/x} and {@code file:///x} alike). */
    public static boolean sameResource(String a, String b) {
        return canonical(a).equals(canonical(b));
    }

    private static String canonical(String s) {
        int h = s.indexOf('#');
        String t = h >= 0 ? s.substring(0, h) : s;
        if (t.startsWith("file:")) {
            try {
                return Paths.get(URI.create(t)).normalize().toString();
            } catch (RuntimeException e) {
                return t;
            }
        }
        return t;
    }

    private static boolean isRemote(String s) {
        String l = s.toLowerCase(Locale.ROOT);
        return l.startsWith("http://") || l.startsWith("https://") || l.startsWith("s3://");
    }

    /**
     * The aggregation's location as a URI; a local one without a trailing slash, so that fragments of a
     * Zarr store (a directory) are found beside the store, as beside a file.
     */
    private static URI baseUri(String b) throws Refused {
        if (isRemote(b)) {
            return URI.create(b);
        }
        Path p = b.startsWith("file:") ? Paths.get(URI.create(b)) : Paths.get(b);
        p = p.toAbsolutePath().normalize();
        try {
            return new URI("file", null, p.toString().replace(java.io.File.separatorChar, '/'), null);
        } catch (URISyntaxException e) {
            throw new Refused("the aggregation location " + b + " is not a valid path: " + e.getMessage());
        }
    }
}
