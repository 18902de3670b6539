package io.nczarr.store;

import io.nczarr.error.StoreException;
import io.nczarr.http.auth.BearerTokens;
import io.nczarr.http.auth.CookieJar;
import io.nczarr.http.auth.HttpAuth;
import io.nczarr.http.auth.Netrc;
import io.nczarr.http.auth.RequestAuth;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.source.HostClass;
import io.nczarr.source.Origin;
import io.nczarr.source.Trust;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The user's HTTP credentials, read once from the options' environment (user guide, "Which credentials go
 * where"), and the cookies kept while reading with them; one per {@link io.nczarr.open.NcZarrOptions}. Each
 * setting is a system property (of the options' environment), never a URL fragment key (a document cannot
 * choose credentials):
 *
 * <ul>
 *   <li>{@value #NETRC} (netcdf-c's {@code .ncrc} key), else the {@code NETRC} environment variable, else {@code
 *       ~/.netrc} (used when it exists): a {@code .netrc} file;
 *   <li>{@value #BEARER}{@code 1}, {@code .2}, ... (consecutive, up to {@value #MAX_NUMBERED}): {@code PREFIX
 *       TOKEN}; {@value #BEARER_FILE}: a file of such lines ({@code #} comments); the environment variables
 *       {@code NCZARR_BEARER_TOKEN} (for the scheme, host and port of the URL the user gives) and {@code
 *       EARTHDATA_TOKEN} (for https hosts under earthdata.nasa.gov and earthdatacloud.nasa.gov);
 *   <li>{@value #LOGIN_HOSTS}: hosts that get their {@code .netrc} password when a redirect leads there
 *       (default {@value HttpAuth#EARTHDATA_LOGIN});
 *   <li>{@value #PLAIN_HTTP_HOSTS}: hosts credentials may be sent to over plain http (loopback hosts always may);
 *   <li>{@value #COOKIEJAR} (else {@value #COOKIEFILE}): a cookie file (curl's format) the cookies are read from
 *       and saved to ({@link CookieFile}); without it they are kept in memory only.
 * </ul>
 *
 * Which reads use them is the trust model's ({@link Trust#credentialsBound}): the URL the user gives, and
 * document-named URLs on its scheme, host and port or under a prefix of {@code nczarr.trust.credentials}.
 */
public final class HttpLogins {
    public static final String NETRC = "HTTP.NETRC";
    /** netcdf-c's cookie file key (libcurl's cookie jar): cookies are read from it and saved to it. */
    public static final String COOKIEJAR = "HTTP.COOKIEJAR";
    /** netcdf-c's other spelling of {@link #COOKIEJAR} (used when that is unset). */
    public static final String COOKIEFILE = "HTTP.COOKIEFILE";

    public static final String BEARER = "nczarr.http.bearer.";
    public static final String BEARER_FILE = "nczarr.http.bearerTokensFile";
    public static final String LOGIN_HOSTS = "nczarr.http.loginHosts";
    public static final String PLAIN_HTTP_HOSTS = "nczarr.http.plainHttpCredentialHosts";
    static final int MAX_NUMBERED = 100;
    /** In a holder: {@code System.getLogger} looks up the logger service (a class path scan) on first use. */
    private static final class Log {
        static final System.Logger LOG = System.getLogger(HttpLogins.class.getName());
    }

    private final AwsEnvironment environment;
    private HttpAuth auth;

    private HttpLogins(AwsEnvironment environment) {
        this.environment = environment;
    }

    /** No credentials: every read anonymous. */
    public static HttpLogins none() {
        return new HttpLogins(null);
    }

    /** The credentials {@code environment} configures, read on first use. */
    public static HttpLogins of(AwsEnvironment environment) {
        return new HttpLogins(environment);
    }

    /** The credentials, loaded on first call. */
    public synchronized HttpAuth auth() throws IOException {
        if (auth == null) {
            auth = environment == null
                    ? new HttpAuth(Netrc.empty(), BearerTokens.none(), null, null, Set.of(), h -> false)
                    : load(environment);
        }
        return auth;
    }

    /**
     * The hook of reads whose URLs come from {@code origin}: a read gets the credentials only where {@link
     * Trust#credentialsBound} allows (null origin: the URL is the user's own).
     */
    public RequestAuth forOrigin(Origin origin) {
        if (environment == null) {
            return RequestAuth.NONE;
        }
        return uri -> {
            HttpAuth a = auth();
            boolean userInfo = userInfo(origin) != null;
            if ((a.isEmpty() && !userInfo) || (origin != null && !Trust.credentialsBound(origin, uri))) {
                return null;
            }
            DatasetUrl user = origin == null ? null : origin.userUrl();
            return a.chain(uri, user == null ? null : user.uri(), userInfo(origin));
        };
    }

    /** The decoded {@code user:password} of the URL the user gave, or null. */
    private static String userInfo(Origin origin) {
        DatasetUrl user = origin == null ? null : origin.userUrl();
        URI u = user == null ? null : user.uri();
        return u == null || u.getRawUserInfo() == null ? null : u.getUserInfo();
    }

    private static HttpAuth load(AwsEnvironment env) throws IOException {
        Netrc netrc = netrc(env);
        List<BearerTokens.Binding> bindings = new ArrayList<>();
        for (int i = 1; i <= MAX_NUMBERED; i++) {
            String v = env.property(BEARER + i);
            if (v == null) {
                break;
            }
            bindings.add(parse(v, BEARER + i));
        }
        String file = env.property(BEARER_FILE);
        if (file != null) {
            String text = read(Paths.get(file), BEARER_FILE);
            String[] lines = text.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                String l = lines[i].trim();
                if (!l.isEmpty() && !l.startsWith("#")) {
                    bindings.add(parse(l, file + " line " + (i + 1)));
                }
            }
        }
        BearerTokens tokens;
        try {
            tokens = new BearerTokens(bindings);
        } catch (IllegalArgumentException e) {
            throw new StoreException(BEARER_FILE, null, e.getMessage(), false, null);
        }
        Set<String> login = hosts(env.property(LOGIN_HOSTS), HttpAuth.EARTHDATA_LOGIN);
        Set<String> plain = hosts(env.property(PLAIN_HTTP_HOSTS), "");
        CookieFile cookieFile = cookieFile(env);
        HttpAuth auth = new HttpAuth(
                netrc,
                tokens,
                env.variable("NCZARR_BEARER_TOKEN"),
                env.variable("EARTHDATA_TOKEN"),
                login,
                h -> plain.contains(h) || HostClass.of(h) == HostClass.LOOPBACK,
                cookieFile == null ? null : saver(cookieFile));
        if (cookieFile != null) {
            cookieFile.loadInto(auth.cookies());
        }
        return auth;
    }

    /** Writes the jar to {@code file} when it changes; a failure is one warning (naming the file, never a cookie). */
    private static Consumer<CookieJar> saver(CookieFile file) {
        AtomicBoolean warned = new AtomicBoolean();
        return jar -> {
            try {
                file.save(jar);
            } catch (CookieFileException e) {
                if (!warned.getAndSet(true)) {
                    Log.LOG.log(System.Logger.Level.WARNING, "cookies not saved: " + e.getMessage());
                }
            }
        };
    }

    /** The cookie file {@value #COOKIEJAR} or {@value #COOKIEFILE} names, or null. */
    static CookieFile cookieFile(AwsEnvironment env) {
        String named = env.property(COOKIEJAR);
        String option = COOKIEJAR;
        if (named == null) {
            named = env.property(COOKIEFILE);
            option = COOKIEFILE;
        }
        return named == null ? null : new CookieFile(Paths.get(named), option);
    }

    private static BearerTokens.Binding parse(String line, String where) throws StoreException {
        try {
            return BearerTokens.parseLine(line, where);
        } catch (IllegalArgumentException e) {
            throw new StoreException(where, null, e.getMessage(), false, null);
        }
    }

    private static Set<String> hosts(String value, String dflt) {
        Set<String> out = new HashSet<>();
        for (String h : (value == null ? dflt : value).split(",")) {
            if (!h.isBlank()) {
                out.add(h.trim().toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    /** The netrc file named by {@value #NETRC}, {@code NETRC} or {@code ~/.netrc} (absent: no entries). */
    static Netrc netrc(AwsEnvironment env) throws IOException {
        String named = env.property(NETRC);
        String option = NETRC;
        if (named == null) {
            named = env.variable("NETRC");
            option = "NETRC";
        }
        Path p;
        if (named != null) {
            p = Paths.get(named);
        } else {
            String home = env.property("user.home");
            if (home == null) {
                return Netrc.empty();
            }
            p = Paths.get(home, ".netrc");
            if (!Files.exists(p)) {
                return Netrc.empty();
            }
        }
        return Netrc.parse(read(p, option), p.toString());
    }

    /** A small regular text file, whole; failures name the file and the option that named it. */
    private static String read(Path p, String option) throws IOException {
        try {
            if (!Files.exists(p)) {
                throw new NoSuchFileException(p.toString());
            }
            if (!Files.isRegularFile(p)) {
                throw new StoreException(p.toString(), null, "not a regular file (" + option + ")", false, null);
            }
            if (Files.size(p) > Netrc.MAX_CHARS) {
                throw new StoreException(
                        p.toString(), null, "larger than " + Netrc.MAX_CHARS + " bytes (" + option + ")", false, null);
            }
            return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new StoreException(p.toString(), null, "no such file (" + option + ")", false, null);
        }
    }
}
