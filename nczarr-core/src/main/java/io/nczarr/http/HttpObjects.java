package io.nczarr.http;

import io.nczarr.error.Redaction;
import io.nczarr.error.StoreException;
import io.nczarr.http.auth.Redirects;
import io.nczarr.http.auth.RequestAuth;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Whole objects, byte ranges and suffixes by plain HTTP(S) {@code GET} on the JDK {@link HttpClient}: what the
 * HTTP store and HTTP targets of reference files read with. A 404/410 is a missing object ({@link
 * Optional#empty()}, never a HEAD first); every other failure is a {@link StoreException} whose dataset is the
 * object's redacted URL: 401/403 and other 4xx are final, 429/5xx, broken connections and cut bodies are
 * retried ({@link RetryPolicy}, {@link HttpSettings#maxRetries()}), a timeout is retryable for the caller but
 * not retried here. Every body is bounded before it is read ({@link BodySink}); a ranged answer is checked
 * against its {@code Content-Range} ({@link ContentRange}). Thread-safe; the client is the caller's.
 */
public final class HttpObjects {

    /** An object larger than the caller's limit, refused from its {@code Content-Length} before its body. */
    public static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;
        private final long size;

        TooLarge(String location, long size) {
            super(location + ": object of " + size + " bytes is over the limit");
            this.size = size;
        }

        public long size() {
            return size;
        }
    }

    private final HttpClient client;
    private final HttpSettings settings;
    private final RetryPolicy retries;
    private final RequestStats stats = new RequestStats();
    private final RequestAuth auth;

    public HttpObjects(HttpClient client, HttpSettings settings) {
        this(client, settings, RequestAuth.NONE);
    }

    /**
     * Objects read with the user's HTTP credentials where {@code auth} binds them (a credentialed read follows
     * its redirects itself, {@link Redirects}).
     */
    public HttpObjects(HttpClient client, HttpSettings settings, RequestAuth auth) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.client = Objects.requireNonNull(client, "client");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.retries = new RetryPolicy(
                settings.maxRetries(),
                settings.retryDelay(),
                HttpSettings.MAX_RETRIES,
                failure -> !(failure.getCause() instanceof HttpTimeoutException));
    }

    public HttpSettings settings() {
        return settings;
    }

    /** Requests, bytes and retries so far. */
    public RequestStats stats() {
        return stats;
    }

    /**
     * The whole object, or empty on 404/410.
     *
     * @throws TooLarge when the server announces more than {@code maxBytes}
     */
    public Optional<byte[]> get(URI uri, long maxBytes) throws IOException {
        String location = Redaction.redact(uri);
        return retries.run("GET", () -> getOnce(uri, location, maxBytes), stats::countRetry);
    }

    /**
     * {@code length} bytes from {@code offset} (fewer at the end of the object, none past it), or empty on
     * 404/410. A server that ignores {@code Range} is answered from its whole body when that is at most {@code
     * wholeLimit} bytes, and refused otherwise (its download cancelled).
     */
    public Optional<byte[]> getRange(URI uri, long offset, int length, long wholeLimit) throws IOException {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("negative range: offset " + offset + ", length " + length);
        }
        if (length == 0) {
            // one byte's GET tells whether the object exists
            return getRange(uri, 0, 1, wholeLimit).map(b -> new byte[0]);
        }
        String location = Redaction.redact(uri);
        long end = offset + length - 1;
        String what = "GET bytes=" + offset + "-" + end;
        return retries.run(
                what,
                () -> rangeOnce(uri, location, "bytes=" + offset + "-" + end, offset, end, length, wholeLimit, what),
                stats::countRetry);
    }

    /** The last {@code length} bytes (all when the object is shorter), or empty on 404/410. */
    public Optional<byte[]> getSuffix(URI uri, int length, long wholeLimit) throws IOException {
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length);
        }
        if (length == 0) {
            return getRange(uri, 0, 0, wholeLimit);
        }
        String location = Redaction.redact(uri);
        String what = "GET bytes=-" + length;
        return retries.run(
                what,
                () -> rangeOnce(uri, location, "bytes=-" + length, -1, -1, length, wholeLimit, what),
                stats::countRetry);
    }

    // ---------------------------------------------------------------------------------------------

    private HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri)
                .GET()
                .header(ContentEncodings.ACCEPT, ContentEncodings.IDENTITY)
                .timeout(settings.timeout());
    }

    /** One read: anonymous through the client, or credentialed hop by hop ({@link RequestAuth}). */
    private TimedExchange.Result send(
            URI uri, String location, String range, Function<HttpResponse.ResponseInfo, BodySink> sinks, String what)
            throws IOException {
        Function<URI, HttpRequest.Builder> build =
                at -> range == null ? request(at) : request(at).header("Range", range);
        RequestAuth.Chain chain = auth.start(uri);
        if (chain == null) {
            return new TimedExchange(client, settings.timeout(), location, HttpSettings.TIMEOUT)
                    .send(build.apply(uri).build(), sinks, what);
        }
        return Redirects.send(chain, client, settings.timeout(), uri, build, sinks, what);
    }

    private Optional<byte[]> getOnce(URI uri, String location, long maxBytes) throws IOException {
        AtomicLong tooLarge = new AtomicLong(-1);
        AtomicReference<String> refused = new AtomicReference<>();
        stats.countGet();
        TimedExchange.Result r = send(
                uri,
                location,
                null,
                info -> {
                    if (info.statusCode() != 200) {
                        return new BodySink.ErrorText(stats);
                    }
                    String encoded = ContentEncodings.refusal(info.headers());
                    if (encoded != null) {
                        refused.set(encoded);
                        return new BodySink.Discard();
                    }
                    long declared =
                            info.headers().firstValueAsLong("Content-Length").orElse(-1);
                    if (declared > maxBytes) {
                        tooLarge.set(declared);
                        return new BodySink.Discard();
                    }
                    return new BodySink.WholeObject(
                            stats, declared, maxBytes, "the object is larger than the limit of " + maxBytes + " bytes");
                },
                "GET");
        if (refused.get() != null) {
            throw new StoreException(location, null, refused.get() + " (GET)", false, null);
        }
        if (r.status() == 200) {
            if (tooLarge.get() >= 0) {
                throw new TooLarge(location, tooLarge.get());
            }
            return Optional.of(((BodySink.WholeObject) r.sink()).data());
        }
        return failed(location, r, "GET");
    }

    /**
     * One ranged GET. {@code offset < 0}: a suffix request of {@code length} bytes; otherwise {@code
     * offset..end}.
     */
    private Optional<byte[]> rangeOnce(
            URI uri, String location, String range, long offset, long end, int length, long wholeLimit, String what)
            throws IOException {
        AtomicReference<byte[]> into = new AtomicReference<>();
        AtomicReference<String> refused = new AtomicReference<>();
        stats.countGet();
        TimedExchange.Result r =
                send(uri, location, range, info -> sinkFor(info, offset, end, length, wholeLimit, into, refused), what);
        if (refused.get() != null) {
            throw new StoreException(location, null, refused.get() + " (" + what + ")", false, null);
        }
        switch (r.status()) {
            case 206:
                return Optional.of(into.get());
            case 200: {
                byte[] all = ((BodySink.WholeObject) r.sink()).data();
                if (offset < 0) {
                    return Optional.of(
                            all.length <= length ? all : Arrays.copyOfRange(all, all.length - length, all.length));
                }
                if (offset >= all.length) {
                    return Optional.of(new byte[0]);
                }
                return Optional.of(Arrays.copyOfRange(all, (int) offset, (int) Math.min(all.length, offset + length)));
            }
            case 416:
                // the offset is at or past the end: no bytes
                return Optional.of(new byte[0]);
            default:
                return failed(location, r, what);
        }
    }

    private BodySink sinkFor(
            HttpResponse.ResponseInfo info,
            long offset,
            long end,
            int length,
            long wholeLimit,
            AtomicReference<byte[]> into,
            AtomicReference<String> refused) {
        HttpHeaders h = info.headers();
        switch (info.statusCode()) {
            case 206: {
                String cr = h.firstValue("Content-Range").orElse(null);
                Optional<ContentRange> parsed = ContentRange.parse(cr);
                String why = offset >= 0 ? RangeAnswers.refusal206(h, offset, end) : suffixRefusal(h, parsed, length);
                if (why != null) {
                    return refuse(refused, why);
                }
                ContentRange c = parsed.get();
                byte[] buf = new byte[(int) c.length()];
                into.set(buf);
                return new BodySink.IntoArray(stats, buf, 0, buf.length);
            }
            case 200: {
                String encoded = ContentEncodings.refusal(h);
                if (encoded != null) {
                    return refuse(refused, encoded);
                }
                long declared = h.firstValueAsLong("Content-Length").orElse(-1);
                String why = "the server ignores HTTP Range requests and the object is larger than " + wholeLimit
                        + " bytes (" + HttpSettings.WHOLE_OBJECT_LIMIT + ")";
                if (declared > wholeLimit) {
                    return refuse(refused, why);
                }
                return new BodySink.WholeObject(stats, declared, wholeLimit, why);
            }
            case 416:
                return new BodySink.Discard();
            default:
                return new BodySink.ErrorText(stats);
        }
    }

    /** {@link RangeAnswers#refusal206} for a suffix request ({@code bytes=-length}). */
    private static String suffixRefusal(HttpHeaders h, Optional<ContentRange> parsed, int length) {
        if (parsed.isEmpty()) {
            return "HTTP 206 without a valid Content-Range header (got "
                    + h.firstValue("Content-Range").orElse(null) + ")";
        }
        ContentRange c = parsed.get();
        if (c.last() < c.first() || c.length() > length || (c.totalKnown() && c.last() != c.total() - 1)) {
            return "the server answered Content-Range: "
                    + h.firstValue("Content-Range").orElse(null);
        }
        return ContentEncodings.refusal(h);
    }

    private static BodySink refuse(AtomicReference<String> refused, String why) {
        refused.set(why);
        return new BodySink.Discard();
    }

    /** 404/410: empty; any other status: the {@link StoreException} of {@link HttpStatusErrors}. */
    private static Optional<byte[]> failed(String location, TimedExchange.Result r, String what) throws IOException {
        int status = r.status();
        if (status == 404 || status == 410) {
            return Optional.empty();
        }
        String body = r.sink() instanceof BodySink.ErrorText t ? t.text() : "";
        IOException e = HttpStatusErrors.of(location, status, body, what);
        if (!(e instanceof StoreException) && e.getCause() instanceof StoreException s) {
            throw s;
        }
        throw e;
    }
}
