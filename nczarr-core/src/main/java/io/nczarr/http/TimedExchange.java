package io.nczarr.http;

import io.nczarr.error.StoreException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import javax.net.ssl.SSLException;

/**
 * One request and its response, headers and body together, within the request timeout (a {@link Deadline}). On a
 * timeout or an interrupt the body is aborted, so no byte lands in the caller's array afterwards.
 * Failures become {@link StoreException}s naming the URL: timeouts (with an {@link
 * HttpTimeoutException} as cause), broken connections and truncated bodies are retryable, a body
 * that breaks the protocol is not.
 */
public final class TimedExchange {
    /** How deep the JDK client may bury a sink's failure in its own IOExceptions. */
    private static final int CAUSE_DEPTH = 5;

    private final HttpClient client;
    private final Duration timeout;
    private final String location;

    /** What came back: the response and the sink that took its body. */
    public record Result(HttpResponse<Void> response, BodySink sink) {
        public int status() {
            return response.statusCode();
        }
    }

    private final String timeoutSetting;

    /**
     * @param timeoutSetting the configuration key of {@code timeout}, named when a request times out
     */
    public TimedExchange(HttpClient client, Duration timeout, String location, String timeoutSetting) {
        this.client = client;
        this.timeout = timeout;
        this.location = location;
        this.timeoutSetting = timeoutSetting;
    }

    /**
     * Sends {@code request}; {@code sinks} picks the body's sink from the status and headers (on one
     * of the client's threads).
     *
     * @param what the request for messages, e.g. {@code GET bytes=0-9}
     */
    public Result send(HttpRequest request, Function<HttpResponse.ResponseInfo, BodySink> sinks, String what)
            throws IOException {
        return send(request, sinks, what, Deadline.in(timeout.toMillis()));
    }

    /**
     * As {@link #send(HttpRequest, Function, String)}, done by {@code deadline} (an attempt's, from {@link
     * RetryPolicy}): the one deadline notion of HTTP and S3.
     */
    public Result send(
            HttpRequest request, Function<HttpResponse.ResponseInfo, BodySink> sinks, String what, Deadline deadline)
            throws IOException {
        AtomicReference<BodySink> sink = new AtomicReference<>();
        CompletableFuture<HttpResponse<Void>> f = client.sendAsync(request, info -> {
            BodySink s = sinks.apply(info);
            sink.set(s);
            return s;
        });
        try {
            HttpResponse<Void> response = f.get(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
            return new Result(response, sink.get());
        } catch (TimeoutException e) {
            abort(f, sink);
            throw timeout(what, deadline.givenMillis(), new HttpTimeoutException("request timed out"));
        } catch (InterruptedException e) {
            abort(f, sink);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(location + ": interrupted during " + what);
        } catch (ExecutionException e) {
            abort(f, sink);
            throw failure(e.getCause(), what, deadline.givenMillis());
        }
    }

    private StoreException failure(Throwable thrown, String what, long givenMillis) {
        Throwable c = unwrap(thrown);
        if (c instanceof HttpTimeoutException t) {
            return timeout(what, givenMillis, t);
        }
        if (c instanceof StoreException s) {
            // a sink's verdict: a broken protocol names the request, a cut body is retried as it is
            return s.isRetryable()
                    ? new StoreException(location, null, s.detail(), true, s.getCause())
                    : new StoreException(location, null, s.detail() + " (" + what + ")", false, null);
        }
        if (causedBy(c, UnresolvedAddressException.class) || causedBy(c, UnknownHostException.class)) {
            // the same lookup fails the same way: not retried
            return new StoreException(
                    location, null, "unknown host '" + host() + "' (DNS lookup failed) during " + what, false, c);
        }
        if (causedBy(c, SSLException.class)) {
            return new StoreException(
                    location,
                    null,
                    "TLS handshake with " + host() + " failed during " + what
                            + " (if the server speaks plain HTTP, use an http:// URL)",
                    false,
                    c);
        }
        if (c instanceof IOException io) {
            // connection refused/reset/closed, EOF mid-body: transient
            return new StoreException(
                    location, null, "connection failed during " + what + ": " + describe(io), true, io);
        }
        return new StoreException(location, null, what + " failed: " + c, false, c);
    }

    private static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        for (int i = 0; i < CAUSE_DEPTH && t != null; i++) {
            if (type.isInstance(t)) {
                return true;
            }
            t = t.getCause();
        }
        return false;
    }

    /** The server's host[:port] for messages. */
    private String host() {
        try {
            String authority = URI.create(location).getRawAuthority();
            return authority != null ? authority : location;
        } catch (IllegalArgumentException e) {
            return location;
        }
    }

    private static void abort(CompletableFuture<?> f, AtomicReference<BodySink> sink) {
        BodySink s = sink.get();
        if (s != null) {
            s.abort();
        }
        f.cancel(true);
    }

    private StoreException timeout(String what, long givenMillis, HttpTimeoutException cause) {
        return new StoreException(
                location,
                null,
                "no complete response within " + givenMillis + " ms for " + what + " (" + timeoutSetting + ")",
                true,
                cause);
    }

    /** The failure that matters: a sink's own, or a timeout, even when the client wrapped it. */
    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        Throwable c = t;
        for (int i = 0; i < CAUSE_DEPTH && c != null; i++) {
            if (c instanceof StoreException || c instanceof HttpTimeoutException) {
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
}
