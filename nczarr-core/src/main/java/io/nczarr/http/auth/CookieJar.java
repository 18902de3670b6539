package io.nczarr.http.auth;

import java.net.HttpCookie;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Cookies kept per host, host-only: a cookie set by host {@code h} goes back to {@code h} only, whatever its
 * {@code Domain} attribute says (so a login host's cookie never reaches a data host, nor the reverse). {@code
 * Secure} cookies go over https only; {@code Max-Age}/{@code Expires} are honoured; the path is not (datasets are
 * read below the path the session was made for). Bounded: {@link #MAX_HOSTS} hosts, {@link #MAX_PER_HOST}
 * cookies each, {@link #MAX_COOKIE_CHARS} characters a cookie. Thread-safe.
 */
public final class CookieJar {
    public static final int MAX_HOSTS = 256;
    public static final int MAX_PER_HOST = 64;
    public static final int MAX_COOKIE_CHARS = 4096;

    private record Kept(String value, boolean secure, long expiresAtMillis) {}

    /** Host → name → cookie; both maps in insertion order (the oldest host is dropped first). */
    private final Map<String, Map<String, Kept>> hosts = new LinkedHashMap<>();

    /** Stores the {@code Set-Cookie} headers {@code from} answered. */
    public synchronized void store(URI from, List<String> setCookies) {
        String host = host(from);
        if (host == null || setCookies.isEmpty()) {
            return;
        }
        long now = System.currentTimeMillis();
        for (String header : setCookies) {
            List<HttpCookie> parsed;
            try {
                parsed = HttpCookie.parse(header);
            } catch (IllegalArgumentException e) {
                continue; // a malformed cookie is ignored, as browsers do
            }
            for (HttpCookie c : parsed) {
                String value = c.getValue() == null ? "" : c.getValue();
                if (c.getName().length() + value.length() > MAX_COOKIE_CHARS) {
                    continue;
                }
                Map<String, Kept> jar = hosts.get(host);
                if (c.getMaxAge() == 0) {
                    if (jar != null) {
                        jar.remove(c.getName());
                    }
                    continue;
                }
                if (jar == null) {
                    if (hosts.size() >= MAX_HOSTS) {
                        hosts.remove(hosts.keySet().iterator().next());
                    }
                    jar = new LinkedHashMap<>();
                    hosts.put(host, jar);
                }
                if (!jar.containsKey(c.getName()) && jar.size() >= MAX_PER_HOST) {
                    jar.remove(jar.keySet().iterator().next());
                }
                long expires = c.getMaxAge() < 0 ? Long.MAX_VALUE : now + c.getMaxAge() * 1000L;
                jar.put(c.getName(), new Kept(value, c.getSecure(), expires));
            }
        }
    }

    /** The {@code Cookie} header value for a request to {@code to}, or null when no cookie is kept for its host. */
    public synchronized String header(URI to) {
        String host = host(to);
        Map<String, Kept> jar = host == null ? null : hosts.get(host);
        if (jar == null) {
            return null;
        }
        boolean https = "https".equalsIgnoreCase(to.getScheme());
        long now = System.currentTimeMillis();
        jar.values().removeIf(k -> k.expiresAtMillis() <= now);
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Kept> e : jar.entrySet()) {
            if (!e.getValue().secure() || https) {
                out.add(e.getKey() + "=" + e.getValue().value());
            }
        }
        return out.isEmpty() ? null : String.join("; ", out);
    }

    /** How many cookies are kept for {@code host}. */
    public synchronized int count(String host) {
        Map<String, Kept> jar = hosts.get(host.toLowerCase(Locale.ROOT));
        return jar == null ? 0 : jar.size();
    }

    private static String host(URI u) {
        return u.getHost() == null ? null : u.getHost().toLowerCase(Locale.ROOT);
    }
}
