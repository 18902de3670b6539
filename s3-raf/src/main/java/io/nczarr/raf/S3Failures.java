package io.nczarr.raf;

import io.nczarr.error.NcZarrException;
import io.nczarr.error.StoreException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.exception.SdkServiceException;

/**
 * The failures of {@code io.nczarr.s3.S3Bucket} as this package reports them: {@link StoreException}s
 * whose dataset is the object's URL, keeping the bucket's message. Retryable: 5xx, throttling, time-outs
 * and broken connections; not retryable: other 4xx (403...), bad configuration, and a response the
 * bucket found inconsistent (wrong Content-Range, short body). A missing object stays a
 * {@link FileNotFoundException} (what netCDF-Java callers expect) with such a StoreException as cause.
 */
final class S3Failures {
    private static final int THROTTLED = 429;
    private static final int SERVER_ERRORS = 500;

    private S3Failures() {
    }

    static IOException of(String location, IOException e) {
        if (e instanceof StoreException s) {
            return s.dataset() == null ? s.withContext(location, null, null) : s;
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
        return new StoreException(location, null, detail, retryable(e), e);
    }

    private static boolean retryable(IOException e) {
        if (e.getClass() != IOException.class) {
            return true; // the stream itself failed: reset, closed early, timed out
        }
        // the bucket's own IOException: an SDK failure as its cause, or none for a response it refused
        return e.getCause() instanceof SdkException sdk && retryable(sdk);
    }

    private static boolean retryable(SdkException e) {
        if (e instanceof SdkServiceException s) {
            return s.statusCode() >= SERVER_ERRORS || s.statusCode() == THROTTLED || s.isThrottlingException();
        }
        if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException) {
            return true;
        }
        // network trouble carries an IOException; missing credentials or region do not
        return e instanceof SdkClientException && hasIoCause(e);
    }

    private static boolean hasIoCause(Throwable t) {
        for (Throwable c = t.getCause(); c != null && c != t; t = c, c = c.getCause()) {
            if (c instanceof IOException) {
                return true;
            }
        }
        return false;
    }
}
