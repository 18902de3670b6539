package io.nczarr.http.auth;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.time.Duration;

/**
 * The hook through which {@link io.nczarr.http.HttpObjects} authenticates a request: {@link #start} decides, for
 * the URL a read starts at, whether the user's HTTP credentials may be used at all (null: the request is
 * anonymous and sent as before); a {@link Chain} then adds the credentials bound to each hop's own URL and keeps
 * the cookies each hop sets, while redirects are followed one by one ({@link Redirects}), never by the client.
 */
public interface RequestAuth {

    /** No credentials anywhere. */
    RequestAuth NONE = uri -> null;

    /**
     * The credentials chain of a read of {@code uri}, or null to send it anonymously.
     *
     * @throws IOException when the configured credentials cannot be loaded (a bad {@code .netrc})
     */
    Chain start(URI uri) throws IOException;

    /** The credentials of one read and the redirects it follows. */
    interface Chain {
        /** A client sending like {@code base} but never following redirects itself. */
        HttpClient client(HttpClient base);

        /** Adds the headers bound to {@code at} (hop 0 is the URL the read started at). */
        void authorize(URI at, int hop, HttpRequest.Builder request);

        /** Takes what {@code at} answered (its cookies). */
        void received(URI at, HttpHeaders headers);

        /**
         * Whether a {@code 401} from {@code at} is worth one more try with a credential kept for challenges only
         * (the {@code .netrc} {@code default} entry); true once at most.
         */
        default boolean retryUnauthorized(URI at, HttpHeaders headers) {
            return false;
        }

        /**
         * Called before the redirect from {@code from} to {@code to} is followed; true to start the read over at
         * its first URL instead, because another read logged in for {@code from}'s host meanwhile (its cookie
         * will do). May wait, at most {@code wait}, for a login under way.
         *
         * @throws IOException when interrupted while waiting
         */
        default boolean restartInsteadOf(URI from, URI to, Duration wait) throws IOException {
            return false;
        }

        /** The read is over (answered or failed): a login it led ends here at the latest. */
        default void end() {}
    }
}
