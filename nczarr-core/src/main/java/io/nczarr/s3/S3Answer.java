package io.nczarr.s3;

import java.io.FilterInputStream;
import java.io.InputStream;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.http.Abortable;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * The answer to one GET, whichever way it was sent: the headers {@link S3Bodies} checks and the body (abort it
 * when it is not read to its end). {@link DirectGets} makes it from the HTTP headers, without the SDK's
 * {@link GetObjectResponse}, whose first use alone builds about a hundred lambdas in a fresh process.
 */
final class S3Answer extends FilterInputStream implements Abortable {
    private final Abortable abortable;
    private final Long contentLength;
    private final String contentRange;
    private final String eTag;
    private final Instant lastModified;
    private final String lastModifiedHeader;

    /**
     * @param lastModified the time, or {@code null}
     * @param lastModifiedHeader when {@code lastModified} is null: the header, parsed only when asked for (the
     *     first date parsed in a JVM loads the locale data, about 40 ms, and chunk reads never look at it)
     */
    <T extends InputStream & Abortable> S3Answer(
            T body,
            Long contentLength,
            String contentRange,
            String eTag,
            Instant lastModified,
            String lastModifiedHeader) {
        super(body);
        this.abortable = body;
        this.contentLength = contentLength;
        this.contentRange = contentRange;
        this.eTag = eTag;
        this.lastModified = lastModified;
        this.lastModifiedHeader = lastModifiedHeader;
    }

    /** The SDK's answer. */
    static S3Answer of(ResponseInputStream<GetObjectResponse> in) {
        GetObjectResponse r = in.response();
        return new S3Answer(in, r.contentLength(), r.contentRange(), r.eTag(), r.lastModified(), null);
    }

    /** Content-Length, or {@code null} when not given. */
    Long contentLength() {
        return contentLength;
    }

    /** Content-Range, or {@code null} when not given. */
    String contentRange() {
        return contentRange;
    }

    /** ETag, or {@code null}. */
    String eTag() {
        return eTag;
    }

    /** Last-Modified, or {@code null} when not given or malformed. */
    Instant lastModified() {
        return lastModified != null || lastModifiedHeader == null ? lastModified : httpDate(lastModifiedHeader);
    }

    /** An RFC 1123 date, or null when malformed (the time is then unknown). */
    private static Instant httpDate(String v) {
        try {
            return ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    @Override
    public void abort() {
        abortable.abort();
    }
}
