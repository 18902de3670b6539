package io.nczarr.raf;

import io.nczarr.error.Redaction;
import io.nczarr.http.auth.RequestAuth;
import io.nczarr.source.HttpObjectSource;
import io.nczarr.source.HttpSourceSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;

/**
 * A {@link RangeSource} over plain HTTP(S): the core's {@link HttpObjectSource} (ranged GETs, the one
 * Content-Range/Content-Encoding check, bounded bodies, retries) with the {@code nczarr.bytes.*} settings of
 * {@link ByteRangeConfig}. Thread-safe.
 */
public final class HttpRangeSource extends ForwardingRangeSource {
    private final HttpObjectSource source;

    private HttpRangeSource(HttpObjectSource source) {
        super(source);
        this.source = source;
    }

    /** A client as this source wants one ({@link HttpObjectSource#newClient}). */
    public static HttpClient newClient(Duration connectTimeout) {
        return HttpObjectSource.newClient(connectTimeout);
    }

    /**
     * A source with a client of its own, released when the source is dropped. Hosts opening many files should
     * share a client instead: {@link #open(URI, ByteRangeConfig, HttpClient)}.
     */
    public static HttpRangeSource open(URI uri, ByteRangeConfig config) {
        Objects.requireNonNull(config, "config");
        return open(uri, config, newClient(config.connectTimeout()));
    }

    /**
     * A source sending its requests with {@code client}; sends nothing yet.
     *
     * @throws IllegalArgumentException for another scheme, a URL without host, or user info
     */
    public static HttpRangeSource open(URI uri, ByteRangeConfig config, HttpClient client) {
        return open(uri, config, client, RequestAuth.NONE);
    }

    /** As {@link #open(URI, ByteRangeConfig, HttpClient)}, with the HTTP credentials {@code auth} binds to the URL. */
    public static HttpRangeSource open(URI uri, ByteRangeConfig config, HttpClient client, RequestAuth auth) {
        Objects.requireNonNull(config, "config");
        return new HttpRangeSource(HttpObjectSource.open(uri, settings(config), client, auth));
    }

    /** The {@code nczarr.bytes.*} settings as the core source takes them. */
    static HttpSourceSettings settings(ByteRangeConfig config) {
        return new HttpSourceSettings(
                config.requestTimeout(),
                config.maxRetries(),
                config.retryDelay(),
                config.wholeObjectLimit(),
                ByteRangeConfig.PREFIX + "timeout",
                ByteRangeConfig.PREFIX + "retries",
                "mode=bytes reads objects that large only from servers with byte-range support (objects up to "
                        + config.wholeObjectLimit() + " bytes are read whole: " + ByteRangeConfig.PREFIX
                        + "wholeObjectLimit). The download was cancelled; download the file and open it locally"
                        + " instead");
    }

    /** Whether the server ignored Range and the whole object is held in memory. */
    public boolean servingWholeObject() {
        return source.servingWholeObject();
    }

    /** The URL for messages and logs: {@link Redaction#redact(URI)}, the one redaction of the project. */
    static String redact(URI uri) {
        return Redaction.redact(uri);
    }
}
