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

    /** One kept cookie (for the cookie file). */
    public record Cookie(String host, String name, String value, boolean secure, long expiresAtMillis) {}

    /** Host → name → cookie; both maps in insertion order (the oldest host is dropped first). */
    private final Map<String, Map<String, Kept>> hosts = new LinkedHashMap<>();

    /** Host → the number of the last change of its cookies (from one counter: a number is never reused). */
    private final Map<String, Long> stamps = new LinkedHashMap<>();

    private long changes;

    /**
     * Stores the {@code Set-Cookie} headers {@code from} answered.
     *
     * @return whether a cookie was set or dropped
     */
    public synchronized boolean store(URI from, List<String> setCookies) {
        String host = host(from);
        if (host == null || setCookies.isEmpty()) {
            return false;
        }
        long now = System.currentTimeMillis();
        long before = changes;
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
                if (c.getMaxAge() == 0) {
                    Map<String, Kept> jar = hosts.get(host);
                    if (jar != null && jar.remove(c.getName()) != null) {
                        changed(host);
                    }
                    continue;
                }
                long expires = c.getMaxAge() < 0 ? Long.MAX_VALUE : now + c.getMaxAge() * 1000L;
                keep(host, c.getName(), new Kept(value, c.getSecure(), expires));
            }
        }
        return changes != before;
    }

    /**
     * Keeps one cookie for {@code host} (from a cookie file), within the bounds.
     *
     * @return whether it was kept (false: too long, or already expired)
     */
    public synchronized boolean put(String host, String name, String value, boolean secure, long expiresAtMillis) {
        if (name.length() + value.length() > MAX_COOKIE_CHARS
                || expiresAtMillis <= System.currentTimeMillis()
                || host.isEmpty()) {
            return false;
        }
        keep(host.toLowerCase(Locale.ROOT), name, new Kept(value, secure, expiresAtMillis));
        return true;
    }

    private void keep(String host, String name, Kept k) {
        Map<String, Kept> jar = hosts.get(host);
        if (jar == null) {
            if (hosts.size() >= MAX_HOSTS) {
                String oldest = hosts.keySet().iterator().next();
                hosts.remove(oldest);
                stamps.remove(oldest);
            }
            jar = new LinkedHashMap<>();
            hosts.put(host, jar);
        }
        if (!jar.containsKey(name) && jar.size() >= MAX_PER_HOST) {
            jar.remove(jar.keySet().iterator().next());
        }
        jar.put(name, k);
        changed(host);
    }

    private void changed(String host) {
        changes++;
        stamps.put(host, changes);
    }

    /**
     * A number that changes whenever the cookies of {@code uri}'s host change (0: never set), so a reader can
     * tell whether another read got the host a new session since it last sent its own cookies.
     */
    public synchronized long stamp(URI uri) {
        String host = host(uri);
        Long s = host == null ? null : stamps.get(host);
        return s == null ? 0 : s;
    }

    /** The live cookies, host by host (oldest host first). */
    public synchronized List<Cookie> snapshot() {
        long now = System.currentTimeMillis();
        List<Cookie> out = new ArrayList<>();
        for (Map.Entry<String, Map<String, Kept>> h : hosts.entrySet()) {
            for (Map.Entry<String, Kept> e : h.getValue().entrySet()) {
                Kept k = e.getValue();
                if (k.expiresAtMillis() > now) {
                    out.add(new Cookie(h.getKey(), e.getKey(), k.value(), k.secure(), k.expiresAtMillis()));
                }
            }
        }
        return out;
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
