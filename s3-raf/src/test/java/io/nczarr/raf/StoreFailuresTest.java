package io.nczarr.raf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.ChunkException;
import io.nczarr.error.StoreException;
import io.nczarr.s3.S3Bucket;
import io.nczarr.source.SourceFailures;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** How failures are shaped into {@link StoreException}s: another thread's ({@link StoreFailures}), S3's ({@link SourceFailures}). */
class StoreFailuresTest {
    private static final String URL = "http://127.0.0.1:9/b/k.nc";

    @Test
    void theDetailLosesOnlyTheLeadingLocation() {
        assertEquals("HTTP 500", StoreFailures.detail(URL, URL + ": HTTP 500"));
        assertEquals("other: HTTP 500", StoreFailures.detail(URL, "other: HTTP 500"));
        assertEquals("", StoreFailures.detail(URL, null));
    }

    @Test
    void anotherThreadsFailureKeepsItsTypeAndMessage() {
        StoreException store = new StoreException(URL, null, "HTTP 503", true, null);
        IOException again = StoreFailures.rethrown(URL, store);
        StoreException s = assertInstanceOf(StoreException.class, again);
        assertTrue(s.isRetryable());
        assertEquals(store.getMessage(), s.getMessage());
        assertSame(store, s.getCause());

        ChunkException chunk = new ChunkException("bad chunk");
        assertInstanceOf(ChunkException.class, StoreFailures.rethrown(URL, chunk));

        IOException missing = StoreFailures.rethrown(URL, new FileNotFoundException(URL + ": HTTP 404"));
        StoreException m = assertInstanceOf(StoreException.class, missing);
        assertFalse(m.isRetryable());
        assertEquals(URL + ": HTTP 404", m.getMessage());

        // the other thread was interrupted, this one was not: trying again may work
        assertTrue(((StoreException) StoreFailures.rethrown(URL, new InterruptedIOException("x"))).isRetryable());
    }

    @Test
    void s3FailuresAreRetryableOnlyWhenTryingAgainMayHelp() {
        assertTrue(S3Bucket.isRetryable(
                S3Exception.builder().statusCode(503).message("slow down").build()));
        assertTrue(S3Bucket.isRetryable(
                S3Exception.builder().statusCode(429).message("throttled").build()));
        assertFalse(S3Bucket.isRetryable(
                S3Exception.builder().statusCode(403).message("denied").build()));
        assertTrue(S3Bucket.isRetryable(SdkClientException.create("unable to execute", new SocketException("reset"))));
        assertFalse(S3Bucket.isRetryable(SdkClientException.create("Unable to load credentials")));
    }

    @Test
    void theBucketsVerdictAndTextAreKeptOnce() {
        StoreException fromBucket = new StoreException(null, URL, "S3 GET failed: HTTP 503", true, null);
        StoreException s = assertInstanceOf(StoreException.class, SourceFailures.of(URL, fromBucket));
        assertTrue(s.isRetryable());
        assertEquals(URL, s.dataset());
        assertEquals(URL + ": S3 GET failed: HTTP 503", s.getMessage());
        assertTrue(
                ((StoreException) SourceFailures.of(URL, new SocketException("Connection reset"))).isRetryable(),
                "the body's stream broke");
        assertFalse(((StoreException) SourceFailures.of(URL, new IOException("refused"))).isRetryable());
    }

    @Test
    void s3KeepsMissingObjectsAndInterruptsAndFillsInTheDataset() {
        FileNotFoundException nf = assertInstanceOf(
                FileNotFoundException.class,
                SourceFailures.of(URL, new FileNotFoundException(URL + ": no such object")));
        assertEquals(URL + ": no such object", nf.getMessage());
        StoreException cause = assertInstanceOf(StoreException.class, nf.getCause());
        assertEquals(URL, cause.dataset());
        assertFalse(cause.isRetryable());

        InterruptedIOException interrupted = new InterruptedIOException("interrupted");
        assertSame(interrupted, SourceFailures.of(URL, interrupted));

        StoreException withDataset = new StoreException(URL, null, "x", true, null);
        assertSame(withDataset, SourceFailures.of(URL, withDataset));
        assertEquals(URL, ((StoreException) SourceFailures.of(URL, new StoreException("x", true))).dataset());
    }
}
