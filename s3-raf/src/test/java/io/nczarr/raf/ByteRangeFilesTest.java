package io.nczarr.raf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.nczarr.error.StoreException;
import io.nczarr.error.UnsupportedFeatureException;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link ByteRangeFiles}: URLs without a backend, and URLs a backend refuses, fail as this library's exceptions. */
class ByteRangeFilesTest {

    @Test
    void aSchemeWithoutBackendIsUnsupported() {
        UnsupportedFeatureException e = assertThrows(
                UnsupportedFeatureException.class,
                () -> ByteRangeFiles.openSource(URI.create("ftp://127.0.0.1/x.nc"), ByteRangeConfig.defaults()));
        assertEquals("ftp://127.0.0.1/x.nc", e.dataset());
        assertEquals("scheme ftp", e.feature());
        assertEquals("ftp://127.0.0.1/x.nc: mode=bytes reads http, https and s3 URLs, not 'ftp'", e.getMessage());
    }

    @Test
    void credentialsInAnHttpUrlAreRefusedWithoutShowingThem() {
        StoreException e = assertThrows(
                StoreException.class,
                () -> ByteRangeFiles.openSource(
                        URI.create("http://user:pa55word@127.0.0.1/x.nc"), Map.of(), ByteRangeConfig.defaults()));
        assertFalse(e.isRetryable());
        assertEquals("http://127.0.0.1/x.nc: credentials in the URL are not supported", e.getMessage());
    }

    @Test
    void anS3UrlWithoutKeyIsRefused() {
        StoreException e = assertThrows(
                StoreException.class,
                () -> ByteRangeFiles.openSource(
                        URI.create("s3://some-bucket"), Map.of("aws.profile", "none"), ByteRangeConfig.defaults()));
        assertFalse(e.isRetryable());
        assertEquals("mode=bytes needs an object key, not a bucket", e.detail());
    }
}
