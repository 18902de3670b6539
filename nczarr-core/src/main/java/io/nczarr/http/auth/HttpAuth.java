package io.nczarr.http.auth;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The user's HTTP credentials and where each may go. Each request of a credentialed read (one the trust rules
 * let carry the user's credentials) gets at most one {@code Authorization}, chosen from what is bound to its
 * own URL, first match:
 *
 * <ol>
 *   <li>the {@code user:password} of the URL the user gave, on that URL's scheme, host and port;
 *   <li>on a login host ({@link #loginHosts}), its {@code .netrc} machine entry (Basic);
 *   <li>the bearer token of the longest configured prefix of the URL;
 *   <li>{@code NCZARR_BEARER_TOKEN}, on the scheme, host and port of the URL the user gave;
 *   <li>{@code EARTHDATA_TOKEN}, on https hosts under {@code earthdata.nasa.gov} and {@code
 *       earthdatacloud.nasa.gov};
 *   <li>the {@code .netrc} entry of the request's exact host (Basic), but after a redirect only on the origin
 *       the read started at or on a login host; the {@code default} entry only when the origin of the URL the
 *       user gave answers {@code 401} asking for Basic authentication (never preemptively: a data host that
 *       redirects to a login host never sees it).
 * </ol>
 *
 * Cookies go back to the host that set them ({@link CookieJar}), and are kept in the cookie file when one is
 * configured (the {@code onCookiesChanged} hook: {@code io.nczarr.store.CookieFile}). Parallel reads redirected to the same login host for the same data host log in
 * once ({@link LoginFlights}): the first logs in, the others wait for it and start over with its cookie. Nothing (no {@code Authorization}, no cookie) is
 * sent over plain http except to hosts {@code plainHttpAllowed} accepts (loopback, or hosts the user listed).
 */
public final class HttpAuth {
    /** The login host of NASA Earthdata. */
    public static final String EARTHDATA_LOGIN = "urs.earthdata.nasa.gov";

    private static final Set<String> EARTHDATA_DOMAINS = Set.of("earthdata.nasa.gov", "earthdatacloud.nasa.gov");

    private final Netrc netrc;
    private final BearerTokens tokens;
    private final String userOriginToken;
    private final String earthdataToken;
    private final Set<String> loginHosts;
    private final Predicate<String> plainHttpAllowed;
    private final CookieJar cookies = new CookieJar();
    private final Consumer<CookieJar> onCookiesChanged;
    private final LoginFlights logins = new LoginFlights();
    private final Map<HttpClient, HttpClient> noRedirects = new WeakHashMap<>();

    /** At most this many times a read starts over after waiting for another read's login. */
    static final int MAX_RESTARTS = 2;

    /**
     * @param userOriginToken {@code NCZARR_BEARER_TOKEN}, or null
     * @param earthdataToken {@code EARTHDATA_TOKEN}, or null
     * @param loginHosts hosts that get their {@code .netrc} password when a redirect leads there (lower case)
     * @param plainHttpAllowed hosts credentials may be sent to over plain http
     */
    public HttpAuth(
            Netrc netrc,
            BearerTokens tokens,
            String userOriginToken,
            String earthdataToken,
            Set<String> loginHosts,
            Predicate<String> plainHttpAllowed) {
        this(netrc, tokens, userOriginToken, earthdataToken, loginHosts, plainHttpAllowed, null);
    }

    /**
     * As {@link #HttpAuth(Netrc, BearerTokens, String, String, Set, Predicate)}, keeping the cookies in {@code
     * onCookiesChanged} told whenever a host sets or drops a cookie (null: in memory only), so it can keep them in
     * a cookie file; the caller loads the file into {@link #cookies()}.
     */
    public HttpAuth(
            Netrc netrc,
            BearerTokens tokens,
            String userOriginToken,
            String earthdataToken,
            Set<String> loginHosts,
            Predicate<String> plainHttpAllowed,
            Consumer<CookieJar> onCookiesChanged) {
        this.onCookiesChanged = onCookiesChanged;
        this.netrc = netrc;
        this.tokens = tokens;
        this.userOriginToken = userOriginToken;
        this.earthdataToken = earthdataToken;
        this.loginHosts = Set.copyOf(loginHosts);
        this.plainHttpAllowed = plainHttpAllowed;
    }

    /** Whether no credential is configured (then reads go as before, anonymous). */
    public boolean isEmpty() {
        return netrc.isEmpty()
                && tokens.isEmpty()
                && userOriginToken == null
                && earthdataToken == null
                && onCookiesChanged == null;
    }

    /** The cookies kept so far (for all reads made with these credentials). */
    public CookieJar cookies() {
        return cookies;
    }

    /**
     * The chain of a credentialed read starting at {@code first}.
     *
     * @param userUrl the URL the user gave (null if none)
     * @param userInfo the decoded {@code user:password} of {@code userUrl}, or null
     */
    public RequestAuth.Chain chain(URI first, URI userUrl, String userInfo) {
        return new Chain(first, userUrl, userInfo);
    }

    private final class Chain implements RequestAuth.Chain {
        private final URI first;
        private final URI user;
        private final String userInfo;
        /** Whether the user's origin asked for Basic authentication (then the netrc default entry answers). */
        private boolean challenged;
        /** Host → the stamp of its cookies when this read last sent it a request. */
        private final Map<String, Long> sentStamps = new HashMap<>();
        /** The login this read leads, or null. */
        private String leading;

        private int restarts;

        Chain(URI first, URI user, String userInfo) {
            this.first = first;
            this.user = user;
            this.userInfo = userInfo;
        }

        @Override
        public HttpClient client(HttpClient base) {
            return noRedirects(base);
        }

        @Override
        public void authorize(URI at, int hop, HttpRequest.Builder request) {
            String host = at.getHost() == null ? null : at.getHost().toLowerCase(Locale.ROOT);
            boolean https = "https".equalsIgnoreCase(at.getScheme());
            if (host == null || !(https || plainHttpAllowed.test(host))) {
                return;
            }
            String authorization = authorization(at, host, https, hop);
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
            sentStamps.put(host, cookies.stamp(at));
            String cookie = cookies.header(at);
            if (cookie != null) {
                request.header("Cookie", cookie);
            }
        }

        private String authorization(URI at, String host, boolean https, int hop) {
            boolean onUserOrigin = user != null && sameOrigin(at, user);
            if (userInfo != null && onUserOrigin) {
                return basic(userInfo);
            }
            boolean login = loginHosts.contains(host);
            Optional<Netrc.Entry> machine = netrc.machine(host);
            if (login && machine.isPresent()) {
                return basic(machine.get());
            }
            Optional<String> token = tokens.tokenFor(at);
            if (token.isPresent()) {
                return "Bearer " + token.get();
            }
            if (userOriginToken != null && onUserOrigin) {
                return "Bearer " + userOriginToken;
            }
            if (earthdataToken != null && https && !login && isEarthdata(host)) {
                return "Bearer " + earthdataToken;
            }
            if (hop == 0 || sameOrigin(at, first) || login) {
                if (machine.isPresent()) {
                    return basic(machine.get());
                }
                if (challenged && onUserOrigin) {
                    return netrc.defaultEntry().map(HttpAuth::basic).orElse(null);
                }
            }
            return null;
        }

        @Override
        public void received(URI at, HttpHeaders headers) {
            String host = at.getHost() == null ? "" : at.getHost().toLowerCase(Locale.ROOT);
            long before = cookies.stamp(at);
            if (cookies.store(at, headers.allValues("Set-Cookie"))) {
                if (Long.valueOf(before).equals(sentStamps.get(host))) {
                    sentStamps.put(host, cookies.stamp(at)); // this read's own cookie, not another's login
                }
                if (onCookiesChanged != null) {
                    onCookiesChanged.accept(cookies);
                }
            }
            if (leading != null && !loginHosts.contains(host)) {
                end(); // back from the login host: the data host has answered (with its cookie, if any)
            }
        }

        @Override
        public boolean restartInsteadOf(URI from, URI to, Duration wait) throws IOException {
            String toHost = to.getHost() == null ? "" : to.getHost().toLowerCase(Locale.ROOT);
            String fromHost = from.getHost() == null ? "" : from.getHost().toLowerCase(Locale.ROOT);
            if (leading != null || restarts >= MAX_RESTARTS || !loginHosts.contains(toHost)) {
                return false;
            }
            String key = toHost + " " + from.getScheme() + "://" + fromHost + ":" + port(from);
            long sent = sentStamps.getOrDefault(fromHost, 0L);
            for (int turn = 0; turn <= MAX_RESTARTS; turn++) {
                LoginFlights.Turn t = logins.enter(key, wait);
                if (cookies.stamp(from) != sent) {
                    if (t == LoginFlights.Turn.LEAD) {
                        logins.end(key);
                    }
                    restarts++;
                    return true; // a login ended since this read was redirected: its cookie will do
                }
                if (t == LoginFlights.Turn.LEAD) {
                    leading = key;
                    return false;
                }
                if (t == LoginFlights.Turn.TIMED_OUT) {
                    return false;
                }
                // WAITED, but the other login set no cookie (it failed): try to lead the next one
            }
            return false;
        }

        @Override
        public void end() {
            if (leading != null) {
                logins.end(leading);
                leading = null;
            }
        }

        @Override
        public boolean retryUnauthorized(URI at, HttpHeaders headers) {
            boolean basicAsked = headers.allValues("WWW-Authenticate").stream()
                    .anyMatch(v -> v.trim().regionMatches(true, 0, "Basic", 0, 5));
            if (challenged
                    || !basicAsked
                    || user == null
                    || !sameOrigin(at, user)
                    || netrc.defaultEntry().isEmpty()
                    || !("https".equalsIgnoreCase(at.getScheme())
                            || plainHttpAllowed.test(at.getHost().toLowerCase(Locale.ROOT)))) {
                return false;
            }
            challenged = true;
            return true;
        }
    }

    /** Logins under way (tests). */
    int loginsInFlight() {
        return logins.flying();
    }

    private synchronized HttpClient noRedirects(HttpClient base) {
        if (base.followRedirects() == HttpClient.Redirect.NEVER) {
            return base;
        }
        return noRedirects.computeIfAbsent(base, b -> {
            HttpClient.Builder nb = HttpClient.newBuilder()
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .version(b.version())
                    .sslContext(b.sslContext())
                    .sslParameters(b.sslParameters());
            b.connectTimeout().ifPresent(nb::connectTimeout);
            b.proxy().ifPresent(nb::proxy);
            b.authenticator().ifPresent(nb::authenticator);
            b.executor().ifPresent(nb::executor);
            return nb.build();
        });
    }

    private static boolean isEarthdata(String host) {
        for (String d : EARTHDATA_DOMAINS) {
            if (host.endsWith("." + d)) {
                return true;
            }
        }
        return false;
    }

    /** Same scheme, host and port (default ports filled in). */
    public static boolean sameOrigin(URI a, URI b) {
        return a.getScheme() != null
                && a.getScheme().equalsIgnoreCase(b.getScheme())
                && a.getHost() != null
                && a.getHost().equalsIgnoreCase(b.getHost())
                && port(a) == port(b);
    }

    private static int port(URI u) {
        if (u.getPort() >= 0) {
            return u.getPort();
        }
        return "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
    }

    private static String basic(Netrc.Entry e) {
        return basic(e.login() + ":" + e.password());
    }

    private static String basic(String userPassword) {
        return "Basic " + Base64.getEncoder().encodeToString(userPassword.getBytes(StandardCharsets.UTF_8));
    }
}
