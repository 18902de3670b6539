package io.nczarr.http.auth;

import io.nczarr.error.Redaction;
import io.nczarr.error.StoreException;
import io.nczarr.http.BodySink;
import io.nczarr.http.HttpSettings;
import io.nczarr.http.TimedExchange;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Sends an authenticated read and follows its redirects itself, hop by hop, so that each hop carries only the
 * credentials bound to its own URL ({@link RequestAuth.Chain#authorize}): the JDK client, following redirects on
 * its own, would copy the first request's headers to whatever host the redirect names.
 */
public final class Redirects {
    /** Most redirects one read follows. */
    public static final int MAX_REDIRECTS = 10;

    private Redirects() {}

    /**
     * Sends {@code request(uri)} and the requests its redirects (301, 302, 303, 307, 308 with a {@code Location})
     * lead to; the answer that is not a redirect is returned with its sink from {@code sinks}. A {@code 401} is
     * tried once more when the chain has a credential kept for challenges ({@link
     * RequestAuth.Chain#retryUnauthorized}).
     */
    public static TimedExchange.Result send(
            RequestAuth.Chain chain,
            HttpClient base,
            Duration timeout,
            URI uri,
            Function<URI, HttpRequest.Builder> request,
            Function<HttpResponse.ResponseInfo, BodySink> sinks,
            String what)
            throws IOException {
        try {
            return follow(chain, chain.client(base), timeout, uri, request, sinks, what);
        } finally {
            chain.end();
        }
    }

    private static TimedExchange.Result follow(
            RequestAuth.Chain chain,
            HttpClient client,
            Duration timeout,
            URI uri,
            Function<URI, HttpRequest.Builder> request,
            Function<HttpResponse.ResponseInfo, BodySink> sinks,
            String what)
            throws IOException {
        URI at = uri;
        for (int hop = 0; ; hop++) {
            HttpRequest.Builder b = request.apply(at);
            chain.authorize(at, hop, b);
            String location = Redaction.redact(at);
            TimedExchange.Result r = new TimedExchange(client, timeout, location, HttpSettings.TIMEOUT)
                    .send(
                            b.build(),
                            info -> next(info.statusCode(), info.headers().firstValue("Location"))
                                    ? new BodySink.Discard()
                                    : sinks.apply(info),
                            what);
            chain.received(at, r.response().headers());
            if (r.status() == 401
                    && hop < MAX_REDIRECTS
                    && chain.retryUnauthorized(at, r.response().headers())) {
                continue; // the same URL once more, answering the challenge
            }
            Optional<String> to = r.response().headers().firstValue("Location");
            if (!next(r.status(), to)) {
                return r;
            }
            if (hop >= MAX_REDIRECTS) {
                throw new StoreException(
                        Redaction.redact(uri),
                        null,
                        "more than " + MAX_REDIRECTS + " redirects (" + what + ")",
                        false,
                        null);
            }
            URI target;
            try {
                target = at.resolve(to.get().trim());
            } catch (IllegalArgumentException e) {
                throw new StoreException(location, null, "a redirect to an invalid URL (" + what + ")", false, null);
            }
            String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || target.getHost() == null) {
                throw new StoreException(
                        location,
                        null,
                        "a redirect to " + Redaction.redact(target) + ", not an http(s) URL (" + what + ")",
                        false,
                        null);
            }
            if (scheme.equals("http") && "https".equalsIgnoreCase(at.getScheme())) {
                // as the JDK client's Redirect.NORMAL: never from https down to http
                return r;
            }
            if (chain.restartInsteadOf(at, target, timeout)) {
                at = uri; // another read logged in meanwhile: the first URL again, with its cookie
                hop = -1;
                continue;
            }
            at = target;
        }
    }

    private static boolean next(int status, Optional<String> location) {
        return (status == 301 || status == 302 || status == 303 || status == 307 || status == 308)
                && location.isPresent()
                && !location.get().isBlank();
    }
}
