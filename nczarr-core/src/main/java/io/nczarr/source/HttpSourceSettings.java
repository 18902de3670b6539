package io.nczarr.source;

import io.nczarr.http.HttpObjects;
import io.nczarr.http.HttpSettings;
import java.time.Duration;

/**
 * How one {@link HttpObjectSource} drives its server, and the settings its messages name: {@code mode=bytes}
 * has its own ({@code nczarr.bytes.*}), the store and document targets {@code nczarr.http.*} ({@link #of}).
 *
 * @param requestTimeout one request, headers and body together
 * @param maxRetries retries of a retryable failure
 * @param retryDelay the first backoff
 * @param wholeObjectLimit the largest object kept whole from a server that ignores {@code Range}
 * @param timeoutProperty the setting of {@code requestTimeout}, named in time-out messages
 * @param retriesProperty the setting of {@code maxRetries}
 * @param rangeIgnoredAdvice what the refusal of an object over {@code wholeObjectLimit} says to do
 */
public record HttpSourceSettings(
        Duration requestTimeout,
        int maxRetries,
        Duration retryDelay,
        long wholeObjectLimit,
        String timeoutProperty,
        String retriesProperty,
        String rangeIgnoredAdvice) {

    /** The {@code nczarr.http.*} settings of the HTTP store and of document targets. */
    public static HttpSourceSettings of(HttpSettings h) {
        return new HttpSourceSettings(
                h.timeout(),
                h.maxRetries(),
                h.retryDelay(),
                h.wholeObjectLimit(),
                HttpSettings.TIMEOUT,
                HttpSettings.MAX_RETRIES,
                "objects up to " + h.wholeObjectLimit() + " bytes are read whole (" + HttpSettings.WHOLE_OBJECT_LIMIT
                        + "). The download was cancelled");
    }

    /** These settings as {@link HttpSettings} (one request at a time), for the plain GETs of {@link HttpObjects}. */
    HttpSettings asHttpSettings() {
        return new HttpSettings(1, maxRetries, retryDelay, requestTimeout, wholeObjectLimit);
    }
}
