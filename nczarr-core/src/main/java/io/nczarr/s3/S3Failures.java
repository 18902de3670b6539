package io.nczarr.s3;

import io.nczarr.error.StoreException;
import io.nczarr.http.Deadline;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import javax.net.ssl.SSLException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The one place S3 failures are classified and described for one bucket: which may pass
 * ({@link #isRetryable}), and the {@link StoreException} for each (key = the object's URL, naming the
 * active profile/region through {@link S3Settings#describe()}, never a secret).
 */
final class S3Failures {

    private final S3Settings settings;

    S3Failures(S3Settings settings) {
        this.settings = settings;
    }

    /** The URL of an object of the bucket, for messages. */
    String url(String key) {
        return settings.location().url(key);
    }

    /** 404 for an object; a missing bucket is an error, not a missing object. */
    static boolean isMissingObject(S3Exception e) {
        if (e.statusCode() != 404) {
            return false;
        }
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        return !"NoSuchBucket".equals(code);
    }

    /** What a GET or HEAD of a missing object throws. */
    NoSuchObject noSuchObject(String key) {
        return new NoSuchObject(url(key) + ": no such object [" + settings.describe() + "]");
    }

    StoreException error(String op, String key, SdkException e, Deadline d) {
        StringBuilder m = new StringBuilder("S3 ").append(op);
        if (e instanceof S3Exception s3) {
            String code =
                    s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
            m.append(" failed: HTTP ").append(s3.statusCode());
            if (code != null) {
                m.append(' ').append(code);
            }
            if (s3.statusCode() == 403) {
                m.append(" (access denied");
                m.append(
                        settings.credentials() instanceof S3Credentials.Anonymous
                                ? "; unsigned request: is the bucket public?)"
                                : ")");
            }
            String msg =
                    s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorMessage();
            if (msg != null && !msg.isBlank()) {
                m.append(": ").append(msg);
            }
        } else if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException) {
            m.append(" timed out: no response within ")
                    .append(d.givenMillis())
                    .append(" ms (")
                    .append(limit(d))
                    .append(')');
        } else if (causedBy(e, SocketTimeoutException.class)) {
            // the socket time-out (one read) fired before the SDK's (the attempt): the same wait, said the same way
            m.append(" timed out: no data for ")
                    .append(settings.tuning().attemptTimeoutMillis())
                    .append(" ms (")
                    .append(S3Tuning.ATTEMPT_TIMEOUT_MS)
                    .append(')');
        } else if (causedBy(e, UnknownHostException.class)) {
            m.append(" failed: unknown host '").append(host()).append("' (DNS lookup failed)");
        } else if (causedBy(e, SSLException.class)) {
            URI ep = settings.location().endpoint();
            m.append(" failed: TLS handshake with ").append(host()).append(" failed");
            if (ep != null && "https".equalsIgnoreCase(ep.getScheme())) {
                // s3://host:port means https; a loopback or MinIO server often speaks plain http
                m.append(" (if the server speaks plain HTTP, use http://")
                        .append(ep.getRawAuthority())
                        .append("/<bucket>/<key>#mode=...,s3)");
            }
        } else if (causedBy(e, ConnectException.class)) {
            m.append(" failed: cannot connect to ").append(host()).append(" (connection refused)");
        } else {
            m.append(" failed: ").append(e.getMessage());
        }
        m.append(" [").append(settings.describe()).append(']');
        return new StoreException(null, url(key), m.toString(), isRetryable(e), e);
    }

    /** The server named in messages: the endpoint's host and port, or AWS's S3 host for the region. */
    private String host() {
        URI ep = settings.location().endpoint();
        return ep != null ? ep.getRawAuthority() : "s3." + settings.region() + ".amazonaws.com";
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The setting that gave an attempt its time: its own limit ({@value S3Tuning#ATTEMPT_TIMEOUT_MS}) when it
     * had all of it (within the millisecond a deadline is rounded to), else what was left of the request's
     * ({@value S3Tuning#REQUEST_TIMEOUT_MS}). When the two are equal (an attempt never outlives its request),
     * both are named: raising either alone would not help.
     */
    String limit(Deadline d) {
        S3Tuning t = settings.tuning();
        if (t.attemptTimeoutMillis() >= t.requestTimeoutMillis()) {
            return S3Tuning.ATTEMPT_TIMEOUT_MS + ", limited by " + S3Tuning.REQUEST_TIMEOUT_MS;
        }
        return d.givenMillis() + 1 >= t.attemptTimeoutMillis()
                ? S3Tuning.ATTEMPT_TIMEOUT_MS
                : S3Tuning.REQUEST_TIMEOUT_MS;
    }

    /** See {@link S3Bucket#isRetryable}. */
    static boolean isRetryable(SdkException e) {
        if (e instanceof SdkServiceException s) {
            int status = s.statusCode();
            return status >= 500 || status == 429 || status == 408 || s.isThrottlingException();
        }
        if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException) {
            return true;
        }
        // "Unable to execute HTTP request": the cause says whether the network failed; an unknown host or a
        // TLS handshake refused (an https request to a plain-http server) fails the same way every time
        if (causedBy(e, UnknownHostException.class) || causedBy(e, SSLException.class)) {
            return false;
        }
        return causedBy(e, IOException.class);
    }

    /**
     * The response body broke off (reset, closed early, a socket read timed out): retryable. An interrupt
     * passes unchanged: the read was cancelled.
     */
    IOException bodyFailure(String key, IOException e) {
        if (e instanceof SocketTimeoutException) {
            return new StoreException(
                    null,
                    url(key),
                    "S3 GET timed out: no data for " + settings.tuning().attemptTimeoutMillis()
                            + " ms while reading the body (" + S3Tuning.ATTEMPT_TIMEOUT_MS + ")",
                    true,
                    e);
        }
        if (e instanceof InterruptedIOException && Thread.currentThread().isInterrupted()) {
            return e;
        }
        String m = e.getMessage();
        return new StoreException(
                null,
                url(key),
                "S3 GET failed while reading the body: " + e.getClass().getSimpleName() + (m == null ? "" : ": " + m),
                true,
                e);
    }

    StoreException bodyTimeout(String key, Deadline d, IOException cause) {
        return new StoreException(
                null,
                url(key),
                "S3 GET timed out: the body was not complete within " + d.givenMillis() + " ms (" + limit(d) + ")",
                true,
                cause);
    }

    StoreException bodyEnded(String key, int got, int n) {
        return new StoreException(
                null, url(key), "S3 GET: the body ended after " + got + " of " + n + " bytes", true, null);
    }

    /** A response that does not answer the request: asking again will not help. */
    StoreException malformed(String key, String detail) {
        return new StoreException(null, url(key), "S3 GET: " + detail, false, null);
    }

    InterruptedIOException interrupted(String key, Exception e) {
        InterruptedIOException x = new InterruptedIOException(url(key) + ": S3 request interrupted");
        x.initCause(e);
        return x;
    }

    /** HTTP 404 for an object: {@link S3Bucket#get} and {@link S3Bucket#getRange} make it an empty Optional. */
    static final class NoSuchObject extends FileNotFoundException {
        private static final long serialVersionUID = 1L;

        NoSuchObject(String message) {
            super(message);
        }
    }

    /** HTTP 416: a range starting at or after the end of the object. */
    static final class RangeNotSatisfiable extends IOException {
        private static final long serialVersionUID = 1L;
    }
}
