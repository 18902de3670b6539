package io.nczarr.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.http.Deadline;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;

/**
 * A timed-out S3 attempt names the setting that gave it its time (issue 21, finding 8): the per-attempt one
 * ({@value S3Tuning#ATTEMPT_TIMEOUT_MS}) when the attempt had all of it, the wide one ({@value
 * S3Tuning#REQUEST_TIMEOUT_MS}) only when what was left of the request cut it short.
 */
class S3TimeoutMessageTest {

    private static S3Failures failures(long attemptMs, long requestMs) throws IOException {
        Map<String, String> props = Map.of(
                "user.home",
                "/nonexistent-home",
                AwsEnvironment.CONFIG_FILE_PROPERTY,
                "/nonexistent",
                AwsEnvironment.CREDENTIALS_FILE_PROPERTY,
                "/nonexistent");
        S3Settings s = S3Settings.resolve(
                S3Location.parse(URI.create("http://127.0.0.1:9/bucket/key")),
                Map.of(
                        "aws.profile",
                        "none",
                        "aws.region",
                        "us-east-1",
                        "nczarr.s3.attempttimeoutms",
                        Long.toString(attemptMs),
                        "nczarr.s3.requesttimeoutms",
                        Long.toString(requestMs)),
                AwsEnvironment.of(props, Map.of()));
        return new S3Failures(s);
    }

    private static String message(S3Failures f, Deadline d) {
        return f.error("GET", "key", ApiCallAttemptTimeoutException.create(d.givenMillis()), d)
                .getMessage();
    }

    @Test
    void anAttemptThatHadItsWholeTimeNamesThePerAttemptSetting() throws Exception {
        S3Failures f = failures(500, 120_000);
        String m = message(f, Deadline.in(120_000).within(500));
        assertTrue(m.contains("within 500 ms (" + S3Tuning.ATTEMPT_TIMEOUT_MS + ")"), m);
        assertFalse(m.contains(S3Tuning.REQUEST_TIMEOUT_MS), m);
    }

    @Test
    void anAttemptCutShortByTheRequestNamesTheRequestSetting() throws Exception {
        S3Failures f = failures(800, 1000);
        // a retry with 300 ms of the request left
        String m = message(f, Deadline.in(300).within(800));
        assertTrue(m.contains("(" + S3Tuning.REQUEST_TIMEOUT_MS + ")"), m);
        assertFalse(m.contains(S3Tuning.ATTEMPT_TIMEOUT_MS), m);
    }

    @Test
    void anAttemptAsLongAsItsRequestNamesBoth() throws Exception {
        // requestTimeoutMs=2000 alone clips the attempt to 2000 ms: the first attempt's deadline, made a moment
        // after the request's, is rounded to 1999 or 2000 ms
        S3Failures f = failures(30_000, 2000);
        Deadline request = Deadline.in(2000);
        Thread.sleep(3);
        Deadline attempt = request.within(2000);
        String m = message(f, attempt);
        assertTrue(m.contains(S3Tuning.ATTEMPT_TIMEOUT_MS + ", limited by " + S3Tuning.REQUEST_TIMEOUT_MS), m);
        assertEquals(S3Tuning.ATTEMPT_TIMEOUT_MS + ", limited by " + S3Tuning.REQUEST_TIMEOUT_MS, f.limit(attempt));
    }
}
