package io.nczarr.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one redaction: what a location looks like in messages, case by case. */
class RedactionTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // user info
                "http://user:SECRET@host/bucket/ds#mode=zarr,s3 | http://host/bucket/ds#mode=zarr,s3",
                "https://SECRETTOKEN@host/x                     | https://host/x",
                "https://AKIASECRET:SECRET@host:9000/x          | https://host:9000/x",
                "https://u:p@SECRET#w?rd@host/x                 | https://host/x",
                "s3://u:SECRET@bucket                           | s3://bucket",
                "file://u:SECRET@/data/x                        | file:///data/x",
                // query parameters
                "s3://bucket/ds?token=SECRET                    | s3://bucket/ds?token=REDACTED",
                "https://b.s3.amazonaws.com/k.nc?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F1"
                        + "&X-Amz-Security-Token=SECRET&X-Amz-Signature=SECRET"
                        + " | https://b.s3.amazonaws.com/k.nc?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=REDACTED"
                        + "&X-Amz-Security-Token=REDACTED&X-Amz-Signature=REDACTED",
                "https://h/k?AWSAccessKeyId=AKIA&Expires=1&Signature=SECRET | https://h/k?AWSAccessKeyId=REDACTED&Expires=1&Signature=REDACTED",
                "https://acct.blob.core.windows.net/c/b?sv=2020&sig=SECRET&se=x | https://acct.blob.core.windows.net/c/b?sv=2020&sig=REDACTED&se=x",
                "https://h/x?access_token=SECRET&KEY=SECRET&page=2 | https://h/x?access_token=REDACTED&KEY=REDACTED&page=2",
                "https://h/x?client_secret=SECRET&my-api-key=SECRET&x-goog-signature=SECRET"
                        + " | https://h/x?client_secret=REDACTED&my-api-key=REDACTED&x-goog-signature=REDACTED",
                "https://h/x?X%2DAmz%2DSignature=SECRET          | https://h/x?X%2DAmz%2DSignature=REDACTED",
                "https://h/x?flag&token=                         | https://h/x?flag&token=REDACTED",
                // fragment keys
                "s3://bucket/ds#mode=zarr,s3&aws.secret_access_key=SECRET&aws.profile=p"
                        + " | s3://bucket/ds#mode=zarr,s3&aws.secret_access_key=REDACTED&aws.profile=p",
                "/data/x.zarr#mode=zarr,file&aws.session_token=SECRET | /data/x.zarr#mode=zarr,file&aws.session_token=REDACTED",
                "s3://bucket/ds?token=SECRET#token=SECRET         | s3://bucket/ds?token=REDACTED#token=REDACTED",
                // nothing to hide: unchanged
                "/data/sample.file                              | /data/sample.file",
                "file:///data/x.file#mode=nczarr,file           | file:///data/x.file#mode=nczarr,file",
                "https://host:8443/bucket/ds#mode=nczarr,s3&aws.region=eu-west-1&aws.profile=p"
                        + " | https://host:8443/bucket/ds#mode=nczarr,s3&aws.region=eu-west-1&aws.profile=p",
                "https://host/a@b/c?page=1                       | https://host/a@b/c?page=1",
                "https://h/x?monkey=1&keys=2                     | https://h/x?monkey=1&keys=2",
            })
    void locations(String given, String shown) {
        assertEquals(shown, Redaction.redact(given));
        assertFalse(Redaction.redact(given).contains("SECRET"), given);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "token",
                "Token",
                "X-Amz-Signature",
                "x-amz-credential",
                "X-Amz-Security-Token",
                "Signature",
                "sig",
                "AWSAccessKeyId",
                "access_token",
                "key",
                "refresh_token",
                "client_secret",
                "password",
                "aws.secret_access_key",
                "aws.access_key_id",
                "api_key",
                "x-api-key",
                "aws.session_token"
            })
    void secretNames(String name) {
        assertTrue(Redaction.isSecretName(name), name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"mode", "aws.profile", "awsprofile", "aws.region", "page", "Expires", "monkey", "keys"})
    void ordinaryNames(String name) {
        assertFalse(Redaction.isSecretName(name), name);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "http://user:SECRET@127.0.0.1:9/x?token=SECRET | http://127.0.0.1:9/x?token=REDACTED",
                "https://h/k.nc?X-Amz-Signature=SECRET          | https://h/k.nc?X-Amz-Signature=REDACTED",
            })
    void uris(String given, String shown) {
        assertEquals(shown, Redaction.redact(URI.create(given)));
    }

    @Test
    void nullStaysNull() {
        assertNull(Redaction.redact((String) null));
        assertNull(Redaction.redact((URI) null));
    }
}
