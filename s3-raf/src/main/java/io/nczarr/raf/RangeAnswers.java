package io.nczarr.raf;

import io.nczarr.http.BodySink;
import io.nczarr.http.ContentEncodings;
import io.nczarr.http.ContentRange;
import io.nczarr.http.RequestStats;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.util.Optional;

/**
 * The header checks of {@link HttpRangeSource}'s ranged GETs, made when the headers arrive and before the body
 * is read: {@code Content-Range} answers the request, the body is not encoded ({@link ContentEncodings}), the
 * object has not changed ({@link ObjectValidators}), a 200 (Range ignored) is small enough to keep.
 */
final class RangeAnswers {
    private final ByteRangeConfig config;
    private final RequestStats stats;
    private final ObjectValidators object;

    RangeAnswers(ByteRangeConfig config, RequestStats stats, ObjectValidators object) {
        this.config = config;
        this.stats = stats;
        this.object = object;
    }

    /** The sink for a GET's body, chosen (and the headers checked) when the headers arrive. */
    BodySink sinkFor(HttpResponse.ResponseInfo info, long offset, long end, byte[] buf, int off) {
        HttpHeaders h = info.headers();
        switch (info.statusCode()) {
            case 206: {
                String cr = h.firstValue("Content-Range").orElse(null);
                Optional<ContentRange> parsed = ContentRange.parse(cr);
                if (parsed.isEmpty()) {
                    return refuse("HTTP 206 without a valid Content-Range header (got " + cr + ")");
                }
                ContentRange range = parsed.get();
                if (!range.answers(offset, end)) {
                    return refuse(
                            "asked for bytes=" + offset + "-" + end + " but the server answered Content-Range: " + cr);
                }
                String encoded = ContentEncodings.refusal(h);
                if (encoded != null) {
                    return refuse(encoded);
                }
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
                if (declared > config.wholeObjectLimit()) {
                    return refuse(rangeIgnored(declared));
                }
                return new BodySink.WholeObject(stats, declared, config.wholeObjectLimit(), rangeIgnored(-1));
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
                + (size >= 0 ? ", " + size + " bytes" : "") + " to a ranged GET); mode=bytes reads objects that"
                + " large only from servers with byte-range support (objects up to " + config.wholeObjectLimit()
                + " bytes are read whole: " + ByteRangeConfig.PREFIX + "wholeObjectLimit). The download was"
                + " cancelled; download the file and open it locally instead";
    }
}
