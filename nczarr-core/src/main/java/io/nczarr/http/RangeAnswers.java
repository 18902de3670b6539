package io.nczarr.http;

import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.util.Optional;

/**
 * The one header check of ranged GETs ({@link HttpObjects} and {@code io.nczarr.source.HttpObjectSource}),
 * made when the headers arrive and before the body is read: {@code Content-Range} answers the request, the
 * body is not encoded ({@link ContentEncodings}), the object has not changed ({@link ObjectValidators}), a 200
 * (Range ignored) is small enough to keep.
 */
public final class RangeAnswers {
    private final long wholeObjectLimit;
    private final String rangeIgnoredAdvice;
    private final RequestStats stats;
    private final ObjectValidators object;

    /**
     * @param wholeObjectLimit the largest whole object kept when the server ignores {@code Range}
     * @param rangeIgnoredAdvice what the refusal of a larger one says after the facts (the setting to raise)
     */
    public RangeAnswers(long wholeObjectLimit, String rangeIgnoredAdvice, RequestStats stats, ObjectValidators object) {
        this.wholeObjectLimit = wholeObjectLimit;
        this.rangeIgnoredAdvice = rangeIgnoredAdvice;
        this.stats = stats;
        this.object = object;
    }

    /**
     * Why a 206 answer to {@code Range: bytes=offset-end} cannot be used (no or a wrong {@code Content-Range},
     * an encoded body), or null when it can. Shared by every HTTP reader of this library.
     */
    public static String refusal206(HttpHeaders h, long offset, long end) {
        String cr = h.firstValue("Content-Range").orElse(null);
        Optional<ContentRange> parsed = ContentRange.parse(cr);
        if (parsed.isEmpty()) {
            return "HTTP 206 without a valid Content-Range header (got " + cr + ")";
        }
        if (!parsed.get().answers(offset, end)) {
            return "asked for bytes=" + offset + "-" + end + " but the server answered Content-Range: " + cr;
        }
        return ContentEncodings.refusal(h);
    }

    /** The sink for a GET's body, chosen (and the headers checked) when the headers arrive. */
    public BodySink sinkFor(HttpResponse.ResponseInfo info, long offset, long end, byte[] buf, int off) {
        HttpHeaders h = info.headers();
        switch (info.statusCode()) {
            case 206: {
                String refused = refusal206(h, offset, end);
                if (refused != null) {
                    return refuse(refused);
                }
                String cr = h.firstValue("Content-Range").orElse(null);
                ContentRange range = ContentRange.parse(cr).orElseThrow();
                String changed = changed(range.total(), h);
                if (changed != null) {
                    return refuse(changed);
                }
                long count = range.length();
                long declared = h.firstValueAsLong("Content-Length").orElse(count);
                if (declared != count) {
                    return refuse("Content-Length " + declared + " does not match Content-Range: " + cr);
                }
                if (range.totalKnown()) {
                    object.learnLength(range.total());
                }
                return new BodySink.IntoArray(stats, buf, off, (int) count);
            }
            case 200: {
                // Range ignored: the body is the whole object (unless encoded)
                String encoded = ContentEncodings.refusal(h);
                if (encoded != null) {
                    return refuse(encoded);
                }
                long declared = h.firstValueAsLong("Content-Length").orElse(-1);
                String changed = changed(declared, h);
                if (changed != null) {
                    return refuse(changed);
                }
                if (declared > wholeObjectLimit) {
                    return refuse(rangeIgnored(declared));
                }
                return new BodySink.WholeObject(stats, declared, wholeObjectLimit, rangeIgnored(-1));
            }
            case 416:
                return new BodySink.Discard();
            default:
                return new BodySink.ErrorText(stats);
        }
    }

    private String changed(long total, HttpHeaders h) {
        return object.changed(
                total,
                h.firstValue("ETag").orElse(null),
                h.firstValue("Last-Modified").orElse(null));
    }

    private static BodySink refuse(String why) {
        return new BodySink.Refused(BodySink.protocolError(why));
    }

    private String rangeIgnored(long size) {
        return "the server ignores HTTP Range requests (answered 200 with the whole object"
                + (size >= 0 ? ", " + size + " bytes" : "") + " to a ranged GET); " + rangeIgnoredAdvice;
    }
}
