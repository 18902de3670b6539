package io.nczarr.raf;

import io.nczarr.error.NcZarrException;
import io.nczarr.error.StoreException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;

/**
 * The failures of {@code io.nczarr.s3.S3Bucket} as this package reports them: {@link StoreException}s
 * whose dataset is the object's URL, keeping the bucket's message and its verdict on retrying
 * ({@code S3Bucket.isRetryable}: 5xx, throttling, time-outs and broken connections). A missing object stays a
 * {@link FileNotFoundException} (what netCDF-Java callers expect) with such a StoreException as cause.
 */
final class S3Failures {
    private static final int THROTTLED = 429;
    private static final int SERVER_ERRORS = 500;

    private S3Failures() {}

    static IOException of(String location, IOException e) {
        if (e instanceof StoreException s) {
            // the bucket names the object by its URL, which is this source's location: keep its text once
            return s.dataset() == null ? new StoreException(location, null, s.detail(), s.isRetryable(), s) : s;
        }
        if (e instanceof NcZarrException || e instanceof InterruptedIOException) {
            return e;
        }
        String detail = StoreFailures.detail(location, e.getMessage());
        if (e instanceof FileNotFoundException) {
            FileNotFoundException nf = new FileNotFoundException(e.getMessage());
            nf.initCause(new StoreException(location, null, detail, false, e));
            return nf;
        }
        // the bucket classifies its own failures; anything else broke the stream itself
        return new StoreException(location, null, detail, e.getClass() != IOException.class, e);
    }
}
