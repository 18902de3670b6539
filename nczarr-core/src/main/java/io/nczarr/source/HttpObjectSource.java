package io.nczarr.source;

import io.nczarr.error.Redaction;
import io.nczarr.error.StoreException;
import io.nczarr.http.BodySink;
import io.nczarr.http.ContentRange;
import io.nczarr.http.HttpObjects;
import io.nczarr.http.HttpStatusErrors;
import io.nczarr.http.ObjectValidators;
import io.nczarr.http.ReadPreconditions;
import io.nczarr.http.RequestStats;
import io.nczarr.http.RetryPolicy;
import io.nczarr.http.TimedExchange;
import io.nczarr.http.auth.RequestAuth;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.nio.file.AccessDeniedException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link ObjectSource} over plain HTTP(S) with the JDK {@link HttpClient}: THREDDS {@code fileServer}, nginx,
 * Apache, a public or presigned S3 URL... <ul>
 * <li>Every read is {@code GET} with {@code Range: bytes=a-b}, {@code b = a + len - 1} (the end is inclusive). A
 * ranged read must answer {@code 206} with a {@code Content-Range} that starts at {@code a} ({@link ContentRange}),
 * and the body must hold exactly the bytes that header announces ({@link BodySink}); anything else is an error naming
 * the URL (a truncated body is retried, then reported).</li>
 * <li>The object length comes from the first ranged GET's {@code Content-Range} ({@code bytes a-b/total}), so opening
 * a file costs no extra request; {@link #length()} before any read sends one {@code HEAD}, and falls back to {@code
 * GET bytes=0-0} when HEAD is refused (403 as for presigned GET URLs, 405, 501) or has no {@code
 * Content-Length}.</li>
 * <li>A server that ignores {@code Range} (200 with the whole body): if the object is at most {@link
 * HttpSourceSettings#wholeObjectLimit()} bytes (from {@code Content-Length}, or counted while streaming when there is
 * none) the body is kept and every later read is served from it, with no further request; a larger object is an error
 * and its download is cancelled when the response headers arrive, before the body is read. Reading only a window of
 * each full response instead would keep memory bounded but transfer O(size) per read, O(size²) per file: worse than
 * failing clearly and letting the user download the file.</li>
 * <li>The length, and the {@code ETag} when the server sends one, must stay the same across responses ({@link
 * ObjectValidators}); a change is reported as "object changed while reading", never mixed bytes.</li>
 * <li>Failures are {@link StoreException}s whose dataset is the redacted URL, except 404/410 ({@link
 * FileNotFoundException}) and 401/403 ({@link AccessDeniedException}), which carry one as their cause ({@link
 * HttpStatusErrors}). 5xx/429 answers and broken connections (reset, truncated body) are retryable and retried up to
 * {@link HttpSourceSettings#maxRetries()} times with exponential backoff ({@link RetryPolicy}). Timeouts are
 * retryable for the caller but not retried here: the request already waited as long as the user allowed.</li>
 * <li>{@link HttpSourceSettings#requestTimeout()} bounds each request, headers and body together ({@link
 * TimedExchange}).</li>
 * </ul>
 * <p>The {@link HttpClient} is passed in ({@link #open(URI, HttpSourceSettings, HttpClient, RequestAuth)}) so a host can
 * share one between files ({@link #newClient} makes one as a source wants it). HTTP/1.1 is used: plain-http HTTP/2
 * would mean an h2c upgrade attempt on every connection, and range reads gain nothing from HTTP/2. Thread-safe.
 */
public final class HttpObjectSource implements ObjectSource {
    private static final System.Logger LOG = System.getLogger(HttpObjectSource.class.getName());

    private final URI uri;
    private final String location;
    private final HttpSourceSettings config;
    private final RetryPolicy retries;
    private final ObjectValidators object = new ObjectValidators();
    private final RequestStats stats = new RequestStats();
    private final HttpRangeRequests requests;
    /** Serialises length probes (HEAD) so concurrent first callers send one. */
    private final Object probeLock = new Object();
    /** The whole object, when the server ignores Range and the object is small enough. */
    private volatile byte[] whole;

    private volatile boolean closed;

    private final HttpClient client;
    /** The user's credentials where the trust rules bind them to this URL (a credentialed read follows its redirects hop by hop). */
    private final RequestAuth auth;

    private HttpObjectSource(
            URI uri, HttpSourceSettings config, HttpClient client, RequestAuth auth, ReadPreconditions preconditions) {
        this.uri = uri;
        this.client = client;
        this.auth = auth;
        this.config = config;
        this.location = Redaction.redact(uri);
        this.requests = new HttpRangeRequests(uri, location, config, client, auth, object, stats, preconditions);
        // a timed-out request already took all the time the user allows for one: trying again would
        // multiply that wait
        this.retries = new RetryPolicy(
                config.maxRetries(),
                config.retryDelay(),
                config.retriesProperty(),
                failure -> !(failure.getCause() instanceof HttpTimeoutException));
    }

    /**
     * A client as this source wants one: HTTP/1.1, redirects followed, the given connect timeout
     * (the connect timeout given). One client can serve any number of sources.
     */
    public static HttpClient newClient(Duration connectTimeout) {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(connectTimeout)
                .build();
    }

    /**
     * A source for an {@code http:} or {@code https:} URL, sending its requests with {@code client} (whose own
     * settings apply) and the HTTP credentials {@code auth} binds to it ({@link RequestAuth#NONE}: anonymous).
     * Sends nothing yet: the first read (or {@link #length()}) does, so errors such as 404 surface there.
     *
     * @throws IllegalArgumentException for another scheme, a URL without host, or user info
     *     (credentials in the URL are not supported: the JDK client would not send them)
     */
    public static HttpObjectSource open(URI uri, HttpSourceSettings config, HttpClient client, RequestAuth auth) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(client, "client");
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("not an http(s) URL: " + Redaction.redact(uri));
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("URL without host: " + Redaction.redact(uri));
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("credentials in the URL are not supported: " + Redaction.redact(uri));
        }
        if (uri.getRawFragment() != null) {
            try {
                uri = new URI(uri.getScheme(), uri.getRawSchemeSpecificPart(), null);
            } catch (URISyntaxException e) {
                // its message (and so the exception as a cause) quotes the whole URL
                throw new IllegalArgumentException(e.getReason() + ": " + Redaction.redact(uri));
            }
        }
        return new HttpObjectSource(uri, config, client, auth, ReadPreconditions.NONE);
    }

    /**
     * A new source of the same object whose ranged GETs carry {@code preconditions} ({@code If-Match}, {@code
     * If-Unmodified-Since}): a changed object answers 412, a {@link io.nczarr.error.PreconditionFailedException},
     * before any of its bytes are sent. Its length, validators and counters are its own.
     */
    @Override
    public HttpObjectSource withPreconditions(ReadPreconditions preconditions) {
        Objects.requireNonNull(preconditions, "preconditions");
        return new HttpObjectSource(uri, config, client, auth, preconditions);
    }

    @Override
    public String location() {
        return location;
    }

    @Override
    public RequestStats stats() {
        return stats;
    }

    @Override
    public long knownLength() {
        return object.length();
    }

    @Override
    public long lastModified() {
        return object.lastModified();
    }

    @Override
    public String etag() {
        return object.etag();
    }

    /** The whole object in one plain GET ({@link HttpObjects}), refused from a Content-Length over the limit. */
    @Override
    public byte[] readAll(long maxBytes) throws IOException {
        ensureOpen();
        HttpObjects once = new HttpObjects(client, config.asHttpSettings(), auth);
        try {
            Optional<byte[]> b = once.get(uri, maxBytes);
            if (b.isEmpty()) {
                throw SourceFailures.missing(location, "no such object (HTTP 404)", null);
            }
            stats.countGet();
            stats.countBytes(b.get().length);
            return b.get();
        } catch (HttpObjects.TooLarge e) {
            throw new TooLarge(location, e.size(), maxBytes);
        }
    }

    /** Whether the server ignored Range and the whole object is held in memory. */
    public boolean servingWholeObject() {
        return whole != null;
    }

    @Override
    public long length() throws IOException {
        long n = object.length();
        if (n >= 0) {
            return n;
        }
        ensureOpen();
        synchronized (probeLock) {
            if (object.length() < 0) {
                long h = retries.run("HEAD", requests::headOnce, this::beforeRetry);
                if (h >= 0) {
                    object.learnLength(h);
                } else {
                    // HEAD refused or without Content-Length: one byte's GET tells the length
                    read(0, new byte[1], 0, 1);
                    if (object.length() < 0) {
                        throw new StoreException(
                                location,
                                null,
                                "the server tells no object length (no"
                                        + " Content-Length on HEAD, no total in Content-Range)",
                                false,
                                null);
                    }
                }
            }
            return object.length();
        }
    }

    @Override
    public int read(long offset, byte[] buf, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, buf.length);
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        ensureOpen();
        if (len == 0) {
            return 0;
        }
        int want = len;
        long known = object.length();
        if (known >= 0) {
            if (offset >= known) {
                return -1;
            }
            want = (int) Math.min(want, known - offset);
        }
        int done = 0;
        while (done < want) {
            long at = offset + done;
            int pos = off + done;
            int n = fromWhole(at, buf, pos, want - done);
            if (n == Integer.MIN_VALUE) {
                int count = want - done;
                n = retries.run("GET " + rangeText(at, count), () -> rangeGet(at, buf, pos, count), this::beforeRetry);
            }
            if (n < 0) {
                long length = object.length();
                if (done == 0 && (length < 0 || at >= length)) {
                    return -1;
                }
                throw new StoreException(
                        location,
                        null,
                        "object ended at byte " + at + " while " + (want - done) + " more bytes were expected ("
                                + rangeText(offset, want) + ")",
                        false,
                        null);
            }
            done += n;
            long k = object.length();
            if (k >= 0) {
                want = (int) Math.min(want, k - offset);
            }
        }
        return done;
    }

    /** One ranged GET; a whole object (Range ignored) is kept and served from. */
    private int rangeGet(long offset, byte[] buf, int off, int len) throws IOException {
        HttpRangeRequests.Answer a = requests.rangeGetOnce(offset, buf, off, len);
        if (a.whole() == null) {
            return a.count();
        }
        byte[] data = a.whole();
        object.learnLength(data.length);
        whole = data;
        LOG.log(
                System.Logger.Level.WARNING,
                "{0}: the server ignores HTTP Range requests (answered 200 to"
                        + " a ranged GET); the whole object ({1} bytes) was read once and is kept in memory",
                location,
                String.valueOf(data.length));
        return fromWhole(offset, buf, off, len);
    }

    /** Serves from the whole-object copy; {@code Integer.MIN_VALUE} if there is none. */
    private int fromWhole(long at, byte[] buf, int pos, int count) {
        byte[] w = whole;
        if (w == null) {
            return Integer.MIN_VALUE;
        }
        if (at >= w.length) {
            return -1;
        }
        int n = (int) Math.min(count, w.length - at);
        System.arraycopy(w, (int) at, buf, pos, n);
        return n;
    }

    @Override
    public void close() {
        closed = true;
        whole = null;
    }

    @Override
    public String toString() {
        return "HttpObjectSource[" + location + "]";
    }

    private void ensureOpen() throws StoreException {
        if (closed) {
            throw new StoreException(location, null, "closed", false, null);
        }
    }

    private void beforeRetry() throws StoreException {
        stats.countRetry();
        ensureOpen();
    }

    static String rangeText(long offset, long len) {
        return "bytes=" + offset + "-" + (offset + len - 1);
    }
}
