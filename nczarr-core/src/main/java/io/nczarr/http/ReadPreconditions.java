package io.nczarr.http;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Conditions a ranged GET is sent with, so that a changed object answers {@code 412 Precondition Failed} and no
 * byte of it is transferred: {@code If-Match} (an entity tag, quoted as HTTP wants it; a weak tag is never
 * sent, {@code If-Match} compares strongly) and {@code If-Unmodified-Since} (whole seconds since the epoch, 0
 * for none). Used by the HTTP and S3 object sources (S3: {@code ifMatch}, {@code ifUnmodifiedSince}).
 *
 * @param ifMatch the quoted entity tag, or null
 * @param ifUnmodifiedSinceSeconds seconds since the epoch, or 0
 */
public record ReadPreconditions(String ifMatch, long ifUnmodifiedSinceSeconds) {
    /** No condition. */
    public static final ReadPreconditions NONE = new ReadPreconditions(null, 0);

    /**
     * The conditions for an object recorded with {@code etag} (as recorded: with or without quotes; null for
     * none) and modification time {@code seconds} (0 for none).
     */
    public static ReadPreconditions of(String etag, long seconds) {
        String tag = null;
        if (etag != null && !etag.isBlank()) {
            String e = etag.trim();
            boolean weak = e.toUpperCase(Locale.ROOT).startsWith("W/");
            String bare =
                    e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"") ? e.substring(1, e.length() - 1) : e;
            // a weak tag never matches If-Match; a quote inside cannot be sent as one entity tag
            tag = weak || bare.isEmpty() || bare.indexOf('"') >= 0 ? null : "\"" + bare + "\"";
        }
        return new ReadPreconditions(tag, Math.max(0, seconds));
    }

    /** Whether there is nothing to send. */
    public boolean isEmpty() {
        return ifMatch == null && ifUnmodifiedSinceSeconds <= 0;
    }

    /** The {@code If-Unmodified-Since} time, or null. */
    public Instant ifUnmodifiedSince() {
        return ifUnmodifiedSinceSeconds > 0 ? Instant.ofEpochSecond(ifUnmodifiedSinceSeconds) : null;
    }

    /** The {@code If-Unmodified-Since} header value (RFC 1123), or null. */
    public String ifUnmodifiedSinceHeader() {
        Instant t = ifUnmodifiedSince();
        return t == null ? null : DateTimeFormatter.RFC_1123_DATE_TIME.format(t.atOffset(ZoneOffset.UTC));
    }

    /** E.g. {@code If-Match: "abc", If-Unmodified-Since: Tue, 15 Nov 1994 08:12:31 GMT}, for messages. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        if (ifMatch != null) {
            b.append("If-Match: ").append(ifMatch);
        }
        if (ifUnmodifiedSinceSeconds > 0) {
            b.append(b.length() > 0 ? ", " : "").append("If-Unmodified-Since: ").append(ifUnmodifiedSinceHeader());
        }
        return b.toString();
    }
}
