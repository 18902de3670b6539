package io.nczarr.raf;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link RangeSource} over plain HTTP(S) with the JDK {@link HttpClient}: THREDDS
 * {@code fileServer}, nginx, Apache, a public or presigned S3 URL...
 *
 * <ul>
 * <li>Every read is {@code GET} with {@code Range: bytes=a-b}, {@code b = a + len - 1} (the end is
 * inclusive). A ranged read must answer {@code 206} with a {@code Content-Range} that starts at
 * {@code a}, and the body must hold exactly the bytes that header announces; anything else is an
 * error naming the URL (a truncated body is retried, then reported).</li>
 * <li>The object length comes from the first ranged GET's {@code Content-Range} ({@code bytes
 * a-b/total}), so opening a file costs no extra request; {@link #length()} before any read sends
 * one {@code HEAD}, and falls back to {@code GET bytes=0-0} when HEAD is refused (403 as for
 * presigned GET URLs, 405, 501) or has no {@code Content-Length}.</li>
 * <li>A server that ignores {@code Range} (200 with the whole body): if the object is at most
 * {@link ByteRangeConfig#wholeObjectLimit()} bytes (from {@code Content-Length}, or counted while
 * streaming when there is none) the body is kept and every later read is served from it, with no
 * further request; a larger object is an error and its download is cancelled when the response
 * headers arrive, before the body is read. Reading only a window of each full response instead
 * would keep memory bounded but transfer O(size) per read, O(size²) per file: worse than failing
 * clearly and letting the user download the file.</li>
 * <li>The length, and the {@code ETag} when the server sends one, must stay the same across
 * responses; a change is reported as "object changed while reading", never mixed bytes.</li>
 * <li>5xx/429 answers and broken connections (reset, truncated body) are retried up to
 * {@link ByteRangeConfig#maxRetries()} times with exponential backoff. Timeouts and other 4xx are
 * not retried: 404/410 throw {@link FileNotFoundException}, 401/403 {@link AccessDeniedException}.</li>
 * <li>{@link ByteRangeConfig#requestTimeout()} bounds each request, headers and body together.</li>
 * </ul>
 *
 * <p>HTTP/1.1 is used: plain-http HTTP/2 would mean an h2c upgrade attempt on every connection,
 * and range reads gain nothing from HTTP/2. Thread-safe; clients are shared per connect timeout.
 */
public final class HttpRangeSource implements RangeSource {
    private static final System.Logger LOG = System.getLogger(HttpRangeSource.class.getName());
    private static final Map<Duration, HttpClient> CLIENTS = new ConcurrentHashMap<>();
    /** Bytes of an error response body kept for the message (S3's XML error code, nginx's title...). */
    private static final int ERROR_BODY_LIMIT = 2048;
    private static final Pattern CONTENT_RANGE =
            Pattern.compile("\\s*bytes\\s+(\\d+)-(\\d+)/(\\d+|\\*)\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern UNSATISFIED_RANGE =
            Pattern.compile("\\s*bytes\\s+\\*/(\\d+)\\s*", Pattern.CASE_INSENSITIVE);

    private final URI uri;
    private final String location;
    private final ByteRangeConfig config;
    private final HttpClient client;
    private final RequestStats stats = new RequestStats();
    /** Guards length/etag updates only; never held during a request (the client's threads take it). */
    private final Object lengthLock = new Object();
    /** Serialises length probes (HEAD) so concurrent first callers send one. */
    private final Object probeLock = new Object();
    private volatile long length = -1;
    private volatile String etag;
    private volatile long lastModified;
    /** The whole object, when the server ignores Range and the object is small enough. */
    private volatile byte[] whole;
    private volatile boolean closed;

    private HttpRangeSource(URI uri, ByteRangeConfig config) {
        this.uri = uri;
        this.config = config;
        this.location = redact(uri);
        this.client = CLIENTS.computeIfAbsent(config.connectTimeout(), t -> HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(t)
                .build());
    }

    /**
     * A source for an {@code http:} or {@code https:} URL. Sends nothing yet: the first read (or
     * {@link #length()}) does, so errors such as 404 surface there.
     *
     * @throws IllegalArgumentException for another scheme, a URL without host, or user info
     *     (credentials in the URL are not supported: the JDK client would not send them)
     */
    public static HttpRangeSource open(URI uri, ByteRangeConfig config) {
        Objects.requireNonNull(config, "config");
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("not an http(s) URL: " + redact(uri));
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("URL without host: " + redact(uri));
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("credentials in the URL are not supported: " + redact(uri));
        }
        if (uri.getRawFragment() != null) {
            try {
                uri = new URI(uri.getScheme(), uri.getRawSchemeSpecificPart(), null);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        return new HttpRangeSource(uri, config);
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
        return length;
    }

    @Override
    public long lastModified() {
        return lastModified;
    }

    /** Whether the server ignored Range and the whole object is held in memory. */
    public boolean servingWholeObject() {
        return whole != null;
    }

    @Override
    public long length() throws IOException {
        long n = length;
        if (n >= 0) {
            return n;
        }
        ensureOpen();
        synchronized (probeLock) {
            if (length < 0) {
                long h = withRetries("HEAD", this::headOnce);
                if (h >= 0) {
                    learnLength(h);
                } else {
                    // HEAD refused or without Content-Length: one byte's GET tells the length
                    read(0, new byte[1], 0, 1);
                    if (length < 0) {
                        throw new IOException(location + ": the server tells no object length (no Content-Length on"
                                + " HEAD, no total in Content-Range)");
                    }
                }
            }
            return length;
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
        long known = length;
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
                n = withRetries("GET " + rangeText(at, count), () -> rangeGetOnce(at, buf, pos, count));
            }
            if (n < 0) {
                if (done == 0 && (length < 0 || at >= length)) {
                    return -1;
                }
                throw new IOException(location + ": object ended at byte " + at + " while " + (want - done)
                        + " more bytes were expected (" + rangeText(offset, want) + ")");
            }
            done += n;
            long k = length;
            if (k >= 0) {
                want = (int) Math.min(want, k - offset);
            }
        }
        return done;
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
        return "HttpRangeSource[" + location + "]";
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException(location + ": closed");
        }
    }

    static String rangeText(long offset, long len) {
        return "bytes=" + offset + "-" + (offset + len - 1);
    }

    // ---------------------------------------------------------------------------------------------
    // one request

    /** One ranged GET. Returns the bytes stored (>= 1), or -1 when the offset is past the end. */
    private int rangeGetOnce(long offset, byte[] buf, int off, int len) throws IOException {
        long end = offset + len - 1; // inclusive: bytes=a-b names b - a + 1 bytes
        HttpRequest request = HttpRequest.newBuilder(uri)
                .GET()
                .header("Range", "bytes=" + offset + "-" + end)
                .timeout(config.requestTimeout())
                .build();
        String what = "GET bytes=" + offset + "-" + end;
        AtomicReference<Sink> sink = new AtomicReference<>();
        stats.countGet();
        HttpResponse<Void> response = await(client.sendAsync(request, info -> {
            Sink s = sinkFor(info, offset, end, buf, off);
            sink.set(s);
            return s;
        }), sink, what);
        int status = response.statusCode();
        Sink s = sink.get();
        if (status == 206) {
            return ((IntoArraySink) s).count;
        }
        if (status == 200) {
            WholeSink ws = (WholeSink) s;
            byte[] data = ws.data();
            synchronized (lengthLock) {
                learnLength(data.length);
                whole = data;
            }
            LOG.log(System.Logger.Level.WARNING, "{0}: the server ignores HTTP Range requests (answered 200 to"
                    + " a ranged GET); the whole object ({1} bytes) was read once and is kept in memory", location,
                    String.valueOf(data.length));
            return fromWhole(offset, buf, off, len);
        }
        if (status == 416) {
            long total = ((DiscardSink) s).total;
            if (total >= 0) {
                learnLength(total);
            }
            if (length >= 0 && offset >= length) {
                return -1;
            }
            throw new IOException(location + ": HTTP 416 Range Not Satisfiable for " + what + " although the object"
                    + " has " + length + " bytes");
        }
        throw statusError(status, ((ErrorSink) s).text(), what);
    }

    /** One HEAD. Returns the Content-Length, or -1 when HEAD is refused or tells none. */
    private long headOnce() throws IOException {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                .timeout(config.requestTimeout())
                .build();
        stats.countHead();
        HttpResponse<Void> response = await(client.sendAsync(request, HttpResponse.BodyHandlers.discarding()),
                new AtomicReference<>(), "HEAD");
        int status = response.statusCode();
        if (status == 200) {
            noteValidators(response.headers());
            return response.headers().firstValueAsLong("Content-Length").orElse(-1);
        }
        if (status == 403 || status == 405 || status == 501 || status == 400) {
            return -1; // presigned GET URLs refuse HEAD (403); some servers do not implement it
        }
        throw statusError(status, "", "HEAD");
    }

    private Sink sinkFor(HttpResponse.ResponseInfo info, long offset, long end, byte[] buf, int off) {
        int status = info.statusCode();
        HttpHeaders h = info.headers();
        switch (status) {
            case 206: {
                String cr = h.firstValue("Content-Range").orElse(null);
                Matcher m = cr == null ? null : CONTENT_RANGE.matcher(cr);
                if (m == null || !m.matches()) {
                    return new FailSink(new ProtocolError("HTTP 206 without a valid Content-Range header (got "
                            + cr + ")"));
                }
                long start = Long.parseLong(m.group(1));
                long last = Long.parseLong(m.group(2));
                long total = m.group(3).equals("*") ? -1 : Long.parseLong(m.group(3));
                if (start != offset || last < start || last > end || (total >= 0 && last >= total)) {
                    return new FailSink(new ProtocolError("asked for bytes=" + offset + "-" + end
                            + " but the server answered Content-Range: " + cr));
                }
                String enc = h.firstValue("Content-Encoding").orElse("identity");
                if (!enc.equalsIgnoreCase("identity")) {
                    return new FailSink(new ProtocolError("the server sent Content-Encoding: " + enc
                            + "; byte ranges of an encoded body are not the file's bytes"));
                }
                String changed = checkUnchanged(total, h);
                if (changed != null) {
                    return new FailSink(new ProtocolError(changed));
                }
                long count = last - start + 1;
                long declared = h.firstValueAsLong("Content-Length").orElse(count);
                if (declared != count) {
                    return new FailSink(new ProtocolError("Content-Length " + declared + " does not match"
                            + " Content-Range: " + cr));
                }
                if (total >= 0) {
                    learnLength(total);
                }
                return new IntoArraySink(stats, buf, off, (int) count);
            }
            case 200: {
                // Range ignored: the body is the whole object
                long declared = h.firstValueAsLong("Content-Length").orElse(-1);
                String changed = checkUnchanged(declared, h);
                if (changed != null) {
                    return new FailSink(new ProtocolError(changed));
                }
                if (declared > config.wholeObjectLimit()) {
                    return new FailSink(new ProtocolError(rangeIgnored(declared)));
                }
                return new WholeSink(stats, declared, config.wholeObjectLimit(), this::rangeIgnored);
            }
            case 416: {
                String cr = h.firstValue("Content-Range").orElse("");
                Matcher m = UNSATISFIED_RANGE.matcher(cr);
                return new DiscardSink(m.matches() ? Long.parseLong(m.group(1)) : -1);
            }
            default:
                return new ErrorSink(stats);
        }
    }

    private String rangeIgnored(long size) {
        return "the server ignores HTTP Range requests (answered 200 with the whole object"
                + (size >= 0 ? ", " + size + " bytes" : "") + " to a ranged GET); mode=bytes reads objects that"
                + " large only from servers with byte-range support (objects up to " + config.wholeObjectLimit()
                + " bytes are read whole: " + ByteRangeConfig.PREFIX + "wholeObjectLimit). The download was"
                + " cancelled; download the file and open it locally instead";
    }

    /** Compares the length and ETag of a response with the first ones; a message if they changed. */
    private String checkUnchanged(long total, HttpHeaders h) {
        long known = length;
        if (total >= 0 && known >= 0 && total != known) {
            return "object changed while reading: its length was " + known + " bytes and is now " + total;
        }
        String tag = h.firstValue("ETag").orElse(null);
        if (tag != null) {
            synchronized (lengthLock) {
                if (etag == null) {
                    etag = tag;
                } else if (!etag.equals(tag)) {
                    return "object changed while reading: its ETag was " + etag + " and is now " + tag;
                }
            }
        }
        if (lastModified == 0) {
            noteValidators(h);
        }
        return null;
    }

    private void noteValidators(HttpHeaders h) {
        h.firstValue("Last-Modified").ifPresent(v -> {
            try {
                lastModified = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
            } catch (DateTimeParseException ignored) {
                // informational only
            }
        });
        if (etag == null) {
            h.firstValue("ETag").ifPresent(v -> {
                synchronized (lengthLock) {
                    if (etag == null) {
                        etag = v;
                    }
                }
            });
        }
    }

    private void learnLength(long total) {
        synchronized (lengthLock) {
            if (length < 0) {
                length = total;
            }
        }
    }

    private IOException statusError(int status, String body, String what) {
        String msg = "HTTP " + status + reason(status) + " for " + what + summary(body);
        switch (status) {
            case 404:
            case 410:
                return new FileNotFoundException(location + ": " + msg);
            case 401:
            case 403:
                return new AccessDeniedException(location, null, msg
                        + " (access denied: is the object public, or the presigned URL still valid?)");
            case 429:
            case 500:
            case 502:
            case 503:
            case 504:
                return new Retryable(msg);
            default:
                return new IOException(location + ": " + msg);
        }
    }

    private static String reason(int status) {
        return switch (status) {
            case 400 -> " Bad Request";
            case 401 -> " Unauthorized";
            case 403 -> " Forbidden";
            case 404 -> " Not Found";
            case 405 -> " Method Not Allowed";
            case 410 -> " Gone";
            case 416 -> " Range Not Satisfiable";
            case 429 -> " Too Many Requests";
            case 500 -> " Internal Server Error";
            case 502 -> " Bad Gateway";
            case 503 -> " Service Unavailable";
            case 504 -> " Gateway Timeout";
            default -> "";
        };
    }

    /** The first line or S3 {@code <Code>} of an error body, for the message. */
    private static String summary(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        Matcher code = Pattern.compile("<Code>([^<]{1,100})</Code>").matcher(body);
        if (code.find()) {
            return " (" + code.group(1) + ")";
        }
        String s = body.replaceAll("<[^>]*>", " ").replaceAll("\\s+", " ").trim();
        if (s.isEmpty()) {
            return "";
        }
        return " (" + (s.length() > 160 ? s.substring(0, 160) + "..." : s) + ")";
    }

    private <T> HttpResponse<T> await(CompletableFuture<HttpResponse<T>> f, AtomicReference<Sink> sink, String what)
            throws IOException {
        long timeoutMs = config.requestTimeout().toMillis();
        try {
            return f.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            abort(f, sink);
            throw timeout(what);
        } catch (InterruptedException e) {
            abort(f, sink);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(location + ": interrupted during " + what);
        } catch (ExecutionException e) {
            abort(f, sink);
            Throwable c = unwrap(e.getCause());
            if (c instanceof HttpTimeoutException) {
                throw timeout(what);
            }
            if (c instanceof ProtocolError pe) {
                throw new IOException(location + ": " + pe.getMessage() + " (" + what + ")");
            }
            if (c instanceof Retryable r) {
                throw r;
            }
            if (c instanceof IOException io) {
                // connection refused/reset/closed, EOF mid-body: transient
                throw new Retryable("connection failed during " + what + ": " + describe(io), io);
            }
            throw new IOException(location + ": " + what + " failed: " + c, c);
        }
    }

    private static void abort(CompletableFuture<?> f, AtomicReference<Sink> sink) {
        Sink s = sink.get();
        if (s != null) {
            s.abort();
        }
        f.cancel(true);
    }

    private IOException timeout(String what) {
        return new HttpTimeoutException(location + ": no complete response within "
                + config.requestTimeout().toMillis() + " ms for " + what + " (" + ByteRangeConfig.PREFIX + "timeout)");
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        // the JDK client wraps a subscriber's failure into an IOException with it as the cause
        Throwable c = t;
        for (int i = 0; i < 5 && c != null; i++) {
            if (c instanceof ProtocolError || c instanceof Retryable || c instanceof HttpTimeoutException) {
                return c;
            }
            c = c.getCause();
        }
        return t;
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    // ---------------------------------------------------------------------------------------------
    // retries

    private interface Call<T> {
        T run() throws IOException;
    }

    private <T> T withRetries(String what, Call<T> call) throws IOException {
        for (int attempt = 0; ; attempt++) {
            try {
                return call.run();
            } catch (Retryable r) {
                if (attempt >= config.maxRetries()) {
                    throw new IOException(location + ": " + r.getMessage()
                            + (attempt > 0 ? " (gave up after " + (attempt + 1) + " attempts, "
                            + ByteRangeConfig.PREFIX + "retries=" + config.maxRetries() + ")" : ""), r.getCause());
                }
                stats.countRetry();
                sleep(backoff(attempt), what);
                ensureOpen();
            }
        }
    }

    private long backoff(int attempt) {
        long base = config.retryDelay().toMillis();
        long d = Math.min(10_000, base << Math.min(attempt, 16));
        return d + (d > 1 ? ThreadLocalRandom.current().nextLong(d / 2 + 1) : 0);
    }

    private void sleep(long ms, String what) throws InterruptedIOException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(location + ": interrupted while waiting to retry " + what);
        }
    }

    /** A failure worth retrying: 5xx/429, a broken connection, a truncated body. */
    private static final class Retryable extends IOException {
        Retryable(String message) {
            super(message);
        }

        Retryable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** A response that breaks the protocol this class relies on; not retried. */
    private static final class ProtocolError extends IOException {
        ProtocolError(String message) {
            super(message);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // body subscribers: they never buffer more than the caller's array, the whole-object limit or
    // ERROR_BODY_LIMIT, and can be aborted (no write into the caller's array after abort returns)

    private abstract static class Sink implements HttpResponse.BodySubscriber<Void> {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        private Flow.Subscription subscription;
        private boolean stopped;

        @Override
        public synchronized void onSubscribe(Flow.Subscription s) {
            if (stopped) {
                s.cancel();
                return;
            }
            subscription = s;
            start();
            if (!stopped) {
                s.request(Long.MAX_VALUE);
            }
        }

        /** Called once subscribed; may {@link #finish} or {@link #fail} at once. */
        void start() {
        }

        @Override
        public synchronized void onNext(List<ByteBuffer> items) {
            if (stopped) {
                return;
            }
            try {
                for (ByteBuffer b : items) {
                    if (stopped) {
                        return;
                    }
                    consume(b);
                }
            } catch (IOException e) {
                fail(e);
            }
        }

        /** Takes one buffer; may {@link #finish} early (ends the download). */
        abstract void consume(ByteBuffer b) throws IOException;

        /** The body ended normally: validate and complete. */
        abstract void complete();

        @Override
        public synchronized void onError(Throwable t) {
            if (!stopped) {
                stopped = true;
                done.completeExceptionally(t);
            }
        }

        @Override
        public synchronized void onComplete() {
            if (!stopped) {
                stopped = true;
                complete();
            }
        }

        /** Stops early with success: the rest of the body is not downloaded. */
        synchronized void finish() {
            stop();
            done.complete(null);
        }

        synchronized void fail(IOException e) {
            stop();
            done.completeExceptionally(e);
        }

        synchronized void abort() {
            stop();
            done.cancel(false);
        }

        private void stop() {
            stopped = true;
            if (subscription != null) {
                subscription.cancel();
            }
        }

        @Override
        public CompletionStage<Void> getBody() {
            return done;
        }
    }

    /** 206: exactly {@code count} bytes into the caller's array. */
    private static final class IntoArraySink extends Sink {
        private final RequestStats stats;
        private final byte[] buf;
        private final int off;
        final int count;
        private int got;

        IntoArraySink(RequestStats stats, byte[] buf, int off, int count) {
            this.stats = stats;
            this.buf = buf;
            this.off = off;
            this.count = count;
        }

        @Override
        void consume(ByteBuffer b) throws IOException {
            int n = b.remaining();
            stats.countBytes(n);
            if (n > count - got) {
                throw new ProtocolError("the server sent more than the " + count + " bytes its Content-Range"
                        + " announced");
            }
            b.get(buf, off + got, n);
            got += n;
        }

        @Override
        void complete() {
            if (got == count) {
                done.complete(null);
            } else {
                done.completeExceptionally(new Retryable("truncated response: " + got + " of " + count
                        + " bytes received"));
            }
        }
    }

    /** 200 to a ranged GET: keep the whole object, up to a limit. */
    private static final class WholeSink extends Sink {
        private final RequestStats stats;
        private final long declared;
        private final long limit;
        private final java.util.function.LongFunction<String> tooLarge;
        private byte[] data;
        private int got;

        WholeSink(RequestStats stats, long declared, long limit, java.util.function.LongFunction<String> tooLarge) {
            this.stats = stats;
            this.declared = declared;
            this.limit = limit;
            this.tooLarge = tooLarge;
            this.data = new byte[(int) (declared >= 0 ? declared : Math.min(limit, 64 * 1024))];
        }

        @Override
        void consume(ByteBuffer b) throws IOException {
            int n = b.remaining();
            stats.countBytes(n);
            long need = (long) got + n;
            if (need > limit || (declared >= 0 && need > declared)) {
                throw new ProtocolError(declared >= 0 && need > declared
                        ? "the server sent more than its Content-Length " + declared
                        : tooLarge.apply(-1));
            }
            if (need > data.length) {
                data = java.util.Arrays.copyOf(data, (int) Math.min(limit, Math.max(need, 2L * data.length)));
            }
            b.get(data, got, n);
            got += n;
        }

        @Override
        void complete() {
            if (declared >= 0 && got != declared) {
                done.completeExceptionally(new Retryable("truncated response: " + got + " of " + declared
                        + " bytes received"));
            } else {
                done.complete(null);
            }
        }

        byte[] data() {
            return got == data.length ? data : java.util.Arrays.copyOf(data, got);
        }
    }

    /** A response refused when its headers arrive: the body is never read. */
    private static final class FailSink extends Sink {
        private final IOException error;

        FailSink(IOException error) {
            this.error = error;
        }

        @Override
        void start() {
            fail(error);
        }

        @Override
        void consume(ByteBuffer b) {
        }

        @Override
        void complete() {
            done.completeExceptionally(error);
        }
    }

    /** 416: nothing to keep. */
    private static final class DiscardSink extends Sink {
        final long total;

        DiscardSink(long total) {
            this.total = total;
        }

        @Override
        void consume(ByteBuffer b) {
            finish();
        }

        @Override
        void complete() {
            done.complete(null);
        }
    }

    /** Error statuses: keep the start of the body for the message, drop the rest. */
    private static final class ErrorSink extends Sink {
        private final RequestStats stats;
        private final byte[] head = new byte[ERROR_BODY_LIMIT];
        private int got;

        ErrorSink(RequestStats stats) {
            this.stats = stats;
        }

        @Override
        void consume(ByteBuffer b) {
            int n = Math.min(b.remaining(), head.length - got);
            stats.countBytes(b.remaining());
            b.get(head, got, n);
            got += n;
            if (got == head.length) {
                finish();
            }
        }

        @Override
        void complete() {
            done.complete(null);
        }

        synchronized String text() {
            return new String(head, 0, got, StandardCharsets.UTF_8);
        }
    }

    // ---------------------------------------------------------------------------------------------

    /** The URL for messages: no user info, and the values of signature/credential/token query keys hidden. */
    static String redact(URI uri) {
        StringBuilder sb = new StringBuilder();
        if (uri.getScheme() != null) {
            sb.append(uri.getScheme()).append("://");
        }
        if (uri.getHost() != null) {
            sb.append(uri.getHost());
        }
        if (uri.getPort() >= 0) {
            sb.append(':').append(uri.getPort());
        }
        if (uri.getRawPath() != null) {
            sb.append(uri.getRawPath());
        }
        String q = uri.getRawQuery();
        if (q != null) {
            sb.append('?');
            String[] parts = q.split("&");
            for (int i = 0; i < parts.length; i++) {
                String p = parts[i];
                int eq = p.indexOf('=');
                String key = eq < 0 ? p : p.substring(0, eq);
                String k = key.toLowerCase(Locale.ROOT);
                boolean secret = k.contains("signature") || k.contains("credential") || k.contains("token")
                        || k.equals("sig") || k.contains("secret") || k.contains("password");
                sb.append(i > 0 ? "&" : "").append(secret && eq >= 0 ? key + "=REDACTED" : p);
            }
        }
        return sb.toString();
    }
}
