package io.nczarr.testkit.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A data server and a login server on two loopback addresses, playing NASA Earthdata Login's cookie flow: a
 * request to the data server without its session cookie is answered {@code 302} to the login server's {@code
 * /oauth/authorize}; the login server accepts only Basic authentication with the one user and password and
 * answers {@code 302} back to the data server's {@code /urs_redirect?code=...}, which sets the session cookie
 * and redirects (relative {@code Location}) to the object first asked for. Objects are served whole or by
 * {@code Range}. Every request's headers are captured, per server.
 */
public final class LoginServerPair implements AutoCloseable {
    private static final Pattern RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");
    private static final String CODE = "one-time-code-42";
    private static final String SESSION = "data_session";

    /** One request seen: which server ({@code data} or {@code login}), its path and query, its headers. */
    public record Request(String server, String target, Map<String, List<String>> headers) {}

    private final HttpServer data;
    private final HttpServer login;
    private final ExecutorService executor;
    private final String expectedAuthorization;
    private final String sessionId = "sid-" + Long.toHexString(System.nanoTime());
    private final Map<String, byte[]> objects = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Request> requests = new ConcurrentLinkedQueue<>();
    private volatile long loginDelayMillis;

    private LoginServerPair(String dataAddress, String loginAddress, String user, String password) throws IOException {
        this.expectedAuthorization =
                "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "login-pair");
            t.setDaemon(true);
            return t;
        });
        data = HttpServer.create(new InetSocketAddress(InetAddress.getByName(dataAddress), 0), 16);
        login = HttpServer.create(new InetSocketAddress(InetAddress.getByName(loginAddress), 0), 16);
        data.setExecutor(executor);
        login.setExecutor(executor);
        data.createContext("/", this::handleData);
        login.createContext("/", this::handleLogin);
        data.start();
        login.start();
    }

    /** Starts the pair; {@code user:password} is the only login the login server accepts. */
    public static LoginServerPair start(String dataAddress, String loginAddress, String user, String password)
            throws IOException {
        return new LoginServerPair(dataAddress, loginAddress, user, password);
    }

    public LoginServerPair put(String path, byte[] bytes) {
        objects.put(path, bytes.clone());
        return this;
    }

    /** {@code http://data-address:port} + path. */
    public String dataUrl(String path) {
        return base(data) + path;
    }

    /** The login server's host (its address). */
    public String loginHost() {
        return login.getAddress().getAddress().getHostAddress();
    }

    /** The requests seen so far, in order. */
    public List<Request> requests() {
        return new ArrayList<>(requests);
    }

    /** The login server waits this long before answering (so parallel reads overlap at the login). */
    public LoginServerPair loginDelay(long millis) {
        this.loginDelayMillis = millis;
        return this;
    }

    public void clear() {
        requests.clear();
    }

    @Override
    public void close() {
        data.stop(0);
        login.stop(0);
        executor.shutdownNow();
    }

    private static String base(HttpServer s) {
        return "http://" + s.getAddress().getAddress().getHostAddress() + ":"
                + s.getAddress().getPort();
    }

    private void record(String server, HttpExchange ex) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), new ArrayList<>(v)));
        requests.add(new Request(server, ex.getRequestURI().toString(), headers));
    }

    private void handleData(HttpExchange ex) throws IOException {
        try (ex) {
            record("data", ex);
            String path = ex.getRequestURI().getPath();
            Map<String, String> q = query(ex.getRequestURI().getRawQuery());
            if (path.equals("/urs_redirect")) {
                if (!CODE.equals(q.get("code"))) {
                    ex.sendResponseHeaders(401, -1);
                    return;
                }
                ex.getResponseHeaders().add("Set-Cookie", SESSION + "=" + sessionId + "; Path=/; HttpOnly");
                ex.getResponseHeaders().set("Location", q.getOrDefault("state", "/"));
                ex.sendResponseHeaders(302, -1);
                return;
            }
            String cookie = String.join("; ", ex.getRequestHeaders().getOrDefault("Cookie", List.of()));
            if (!cookie.contains(SESSION + "=" + sessionId)) {
                String redirect = base(data) + "/urs_redirect";
                ex.getResponseHeaders()
                        .set(
                                "Location",
                                base(login) + "/oauth/authorize?client_id=test&response_type=code&redirect_uri="
                                        + enc(redirect) + "&state=" + enc(path));
                ex.sendResponseHeaders(302, -1);
                return;
            }
            byte[] body = objects.get(path);
            if (body == null) {
                ex.sendResponseHeaders(404, -1);
                return;
            }
            String range = ex.getRequestHeaders().getFirst("Range");
            Matcher m = range == null ? null : RANGE.matcher(range);
            if (m != null && m.matches() && body.length > 0) {
                long first;
                long last;
                if (m.group(1).isEmpty()) {
                    long n = Long.parseLong(m.group(2));
                    first = Math.max(0, body.length - n);
                    last = body.length - 1;
                } else {
                    first = Long.parseLong(m.group(1));
                    last = m.group(2).isEmpty()
                            ? body.length - 1
                            : Math.min(body.length - 1, Long.parseLong(m.group(2)));
                }
                if (first >= body.length) {
                    ex.sendResponseHeaders(416, -1);
                    return;
                }
                ex.getResponseHeaders().set("Content-Range", "bytes " + first + "-" + last + "/" + body.length);
                send(ex, 206, java.util.Arrays.copyOfRange(body, (int) first, (int) last + 1));
                return;
            }
            send(ex, 200, body);
        }
    }

    private void handleLogin(HttpExchange ex) throws IOException {
        try (ex) {
            record("login", ex);
            if (loginDelayMillis > 0) {
                try {
                    Thread.sleep(loginDelayMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            Map<String, String> q = query(ex.getRequestURI().getRawQuery());
            String authorization = ex.getRequestHeaders().getFirst("Authorization");
            if (!ex.getRequestURI().getPath().equals("/oauth/authorize") || q.get("redirect_uri") == null) {
                ex.sendResponseHeaders(404, -1);
                return;
            }
            if (!expectedAuthorization.equals(authorization)) {
                ex.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"test login\"");
                ex.sendResponseHeaders(401, -1);
                return;
            }
            ex.getResponseHeaders().add("Set-Cookie", "urs_user_already_logged=yes; Path=/");
            ex.getResponseHeaders()
                    .set(
                            "Location",
                            q.get("redirect_uri") + "?code=" + CODE + "&state=" + enc(q.getOrDefault("state", "/")));
            ex.sendResponseHeaders(302, -1);
        }
    }

    private static void send(HttpExchange ex, int status, byte[] body) throws IOException {
        ex.sendResponseHeaders(status, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw == null) {
            return out;
        }
        for (String kv : raw.split("&")) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                out.put(
                        URLDecoder.decode(kv.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return out;
    }
}
