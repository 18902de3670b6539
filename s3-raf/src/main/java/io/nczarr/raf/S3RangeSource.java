package io.nczarr.raf;

import io.nczarr.error.StoreException;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.source.S3ObjectSource;
import java.io.IOException;
import java.net.URI;
import java.util.Map;

/**
 * A {@link RangeSource} over one S3 object: the core's {@link S3ObjectSource} (ranged GetObject requests on
 * {@code io.nczarr.s3.S3Bucket}, the length from the first GET's {@code Content-Range}, a HEAD only if the
 * length is asked first). Failures are {@link StoreException}s, a missing object a {@link
 * java.io.FileNotFoundException}.
 */
public final class S3RangeSource extends ForwardingRangeSource {
    private S3RangeSource(S3ObjectSource source) {
        super(source);
    }

    /** A source whose client comes from the process default {@link NcZarrOptions#shared()}. */
    public static S3RangeSource open(URI uri, Map<String, String> fragment) throws IOException {
        return open(uri, fragment, NcZarrOptions.shared().s3Clients());
    }

    /**
     * A source whose client is leased from {@code pool} (and given back on {@link #close()}). No request is
     * made.
     *
     * @param uri {@code s3://bucket/key}, or an https/http S3 URL (AWS or another endpoint)
     * @param fragment the URL's fragment keys ({@code aws.profile}, {@code aws.region}, ...)
     * @throws StoreException for a URL that names no object, or settings that cannot be resolved
     */
    public static S3RangeSource open(URI uri, Map<String, String> fragment, S3ClientPool pool) throws IOException {
        try {
            return new S3RangeSource(S3ObjectSource.open(uri, fragment, pool));
        } catch (StoreException e) {
            if (S3ObjectSource.NO_KEY.equals(e.detail())) {
                throw new StoreException(
                        e.dataset(), null, "mode=bytes needs an object key, not a bucket", false, null);
            }
            throw e;
        }
    }
}
