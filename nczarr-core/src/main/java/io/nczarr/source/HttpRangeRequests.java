package io.nczarr.source;

import io.nczarr.error.PreconditionFailedException;
import io.nczarr.error.StoreException;
import io.nczarr.http.BodySink;
import io.nczarr.http.ContentEncodings;
import io.nczarr.http.ContentRange;
import io.nczarr.http.HttpStatusErrors;
import io.nczarr.http.ObjectValidators;
import io.nczarr.http.RangeAnswers;
import io.nczarr.http.ReadPreconditions;
import io.nczarr.http.RequestStats;
import io.nczarr.http.TimedExchange;
import io.nczarr.http.auth.Redirects;
import io.nczarr.http.auth.RequestAuth;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.function.Function;

/**
 * One attempt of each request of {@link HttpObjectSource}: a ranged GET (with the source's {@link
 * ReadPreconditions}, if any) or a HEAD, built, sent (anonymous through the client, or credentialed hop by hop
 * with {@link RequestAuth}) and its answer checked. The source retries the attempts and keeps what they learn.
 */
final class HttpRangeRequests {
    private final URI uri;
    private final String location;
    private final HttpSourceSettings config;
    private final HttpClient client;
    private final RequestAuth auth;
    private final TimedExchange exchange;
    private final RangeAnswers answers;
    private final ObjectValidators object;
    private final RequestStats stats;
    private final ReadPreconditions preconditions;

    HttpRangeRequests(
            URI uri,
            String location,
            HttpSourceSettings config,
            HttpClient client,
            RequestAuth auth,
            ObjectValidators object,
            RequestStats stats,
            ReadPreconditions preconditions) {
        this.uri = uri;
        this.location = location;
        this.config = config;
        this.client = client;
        this.auth = auth;
        this.object = object;
        this.stats = stats;
        this.preconditions = preconditions;
        this.answers = new RangeAnswers(config.wholeObjectLimit(), config.rangeIgnoredAdvice(), stats, object);
        this.exchange = new TimedExchange(client, config.requestTimeout(), location, config.timeoutProperty());
    }

    /**
     * What one ranged GET found: {@code count} bytes stored (>= 1), or -1 when the offset is past the end; or,
     * when the server ignored Range (200), the whole object ({@code whole} not null, {@code count} unused).
     */
    record Answer(int count, byte[] whole) {}

    /** One request: anonymous through the client, or credentialed hop by hop ({@link RequestAuth}). */
    private TimedExchange.Result send(
            Function<URI, HttpRequest.Builder> request,
            Function<HttpResponse.ResponseInfo, BodySink> sinks,
            String what)
            throws IOException {
        RequestAuth.Chain chain = auth.start(uri);
        if (chain == null) {
            return exchange.send(request.apply(uri).build(), sinks, what);
        }
        return Redirects.send(chain, client, config.requestTimeout(), uri, request, sinks, what);
    }

    /** One ranged GET into {@code buf[off..]}; a 412 (a precondition failed) is a {@link PreconditionFailedException}. */
    Answer rangeGetOnce(long offset, byte[] buf, int off, int len) throws IOException {
        long end = offset + len - 1; // inclusive: bytes=a-b names b - a + 1 bytes
        Function<URI, HttpRequest.Builder> request = at -> conditional(HttpRequest.newBuilder(at)
                .GET()
                .header("Range", "bytes=" + offset + "-" + end)
                .header(ContentEncodings.ACCEPT, ContentEncodings.IDENTITY)
                .timeout(config.requestTimeout()));
        String what = "GET bytes=" + offset + "-" + end;
        stats.countGet();
        TimedExchange.Result r = send(request, info -> answers.sinkFor(info, offset, end, buf, off), what);
        switch (r.status()) {
            case 206:
                return new Answer(((BodySink.IntoArray) r.sink()).count(), null);
            case 200:
                return new Answer(0, ((BodySink.WholeObject) r.sink()).data());
            case 412:
                throw new PreconditionFailedException(location, what + " with " + preconditions.describe());
            case 416: {
                long total = ContentRange.unsatisfiedTotal(
                        r.response().headers().firstValue("Content-Range").orElse(null));
                if (total >= 0) {
                    object.learnLength(total);
                }
                long length = object.length();
                if (length >= 0 && offset >= length) {
                    return new Answer(-1, null);
                }
                throw new StoreException(
                        location,
                        null,
                        "HTTP 416 Range Not Satisfiable for " + what + " although the object has " + length + " bytes",
                        false,
                        null);
            }
            default:
                throw HttpStatusErrors.of(location, r.status(), ((BodySink.ErrorText) r.sink()).text(), what);
        }
    }

    private HttpRequest.Builder conditional(HttpRequest.Builder b) {
        if (preconditions.ifMatch() != null) {
            b.header("If-Match", preconditions.ifMatch());
        }
        if (preconditions.ifUnmodifiedSinceSeconds() > 0) {
            b.header("If-Unmodified-Since", preconditions.ifUnmodifiedSinceHeader());
        }
        return b;
    }

    /** One HEAD. Returns the Content-Length, or -1 when HEAD is refused or tells none. */
    long headOnce() throws IOException {
        Function<URI, HttpRequest.Builder> request = at -> HttpRequest.newBuilder(at)
                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                .timeout(config.requestTimeout());
        stats.countHead();
        TimedExchange.Result r = send(request, info -> new BodySink.Discard(), "HEAD");
        int status = r.status();
        if (status == 200) {
            HttpHeaders h = r.response().headers();
            object.note(
                    h.firstValue("ETag").orElse(null),
                    h.firstValue("Last-Modified").orElse(null));
            return h.firstValueAsLong("Content-Length").orElse(-1);
        }
        if (status == 403 || status == 405 || status == 501 || status == 400) {
            return -1; // presigned GET URLs refuse HEAD (403); some servers do not implement it
        }
        throw HttpStatusErrors.of(location, status, "", "HEAD");
    }
}
