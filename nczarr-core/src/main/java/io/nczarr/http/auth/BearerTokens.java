package io.nczarr.http.auth;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Bearer tokens bound to URL prefixes: a request gets the token of the longest prefix its URL starts with
 * (scheme and host compared case-insensitively; a prefix without a path ends at its authority, so {@code
 * https://h} never matches {@code https://h.example.com}). A token's {@link Binding#toString()} hides it.
 */
public final class BearerTokens {
    /** Most tokens. */
    public static final int MAX_TOKENS = 1000;

    /** One token and the prefix it is bound to. */
    public record Binding(String prefix, String token) {
        @Override
        public String toString() {
            return prefix + " ***";
        }
    }

    private final List<Binding> bindings;

    public BearerTokens(List<Binding> bindings) {
        if (bindings.size() > MAX_TOKENS) {
            throw new IllegalArgumentException("more than " + MAX_TOKENS + " bearer tokens");
        }
        List<Binding> out = new ArrayList<>();
        for (Binding b : bindings) {
            out.add(new Binding(canonicalPrefix(b.prefix()), b.token()));
        }
        this.bindings = List.copyOf(out);
    }

    public static BearerTokens none() {
        return new BearerTokens(List.of());
    }

    public boolean isEmpty() {
        return bindings.isEmpty();
    }

    public List<Binding> bindings() {
        return bindings;
    }

    /** The token of the longest prefix of {@code url}, if any. */
    public Optional<String> tokenFor(URI url) {
        String u = canonical(url.toString());
        Binding best = null;
        for (Binding b : bindings) {
            if (u.startsWith(b.prefix())
                    && (best == null || b.prefix().length() > best.prefix().length())) {
                best = b;
            }
        }
        return best == null ? Optional.empty() : Optional.of(best.token());
    }

    /**
     * {@code PREFIX TOKEN} (one line of a tokens file or an option value) as a binding.
     *
     * @param where the option or file and line, for the message (which never quotes the token)
     * @throws IllegalArgumentException when it is not two words or the prefix is not an http(s) URL
     */
    public static Binding parseLine(String line, String where) {
        String[] words = line.trim().split("\\s+");
        if (words.length != 2) {
            throw new IllegalArgumentException(where + ": expected 'PREFIX TOKEN' (two words)");
        }
        String p = words[0];
        try {
            URI u = URI.create(p);
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null) {
                throw new IllegalArgumentException();
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    where + ": the prefix '" + p + "' is not an http:// or https:// URL prefix", null);
        }
        return new Binding(p, words[1]);
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
        return u.substring(0, end).toLowerCase(Locale.ROOT) + (slash < 0 ? "/" : u.substring(end));
    }

    private static String canonicalPrefix(String prefix) {
        return canonical(prefix);
    }
}
