package io.nczarr.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** Every URL form of netcdf-c's appendix E, plus S3-compatible endpoints. */
class S3LocationTest {

    static S3Location parse(String s) {
        return S3Location.parse(URI.create(s));
    }

    @Test
    void s3SchemeHostIsTheBucket() {
        S3Location l = parse("s3://my-bucket/path/ds.zarr");
        assertEquals("my-bucket", l.bucket());
        assertEquals("path/ds.zarr", l.key());
        assertTrue(l.isAws());
        assertNull(l.hostRegion());
        assertEquals("s3://my-bucket/path/ds.zarr", l.url());
    }

    @Test
    void s3SchemeBucketOnlyAndTrailingSlash() {
        assertEquals("", parse("s3://my-bucket").key());
        assertEquals("", parse("s3://my-bucket/").key());
        assertEquals("a/b", parse("s3://my-bucket/a/b/").key());
    }

    @Test
    void s3SchemeWithDottedBucketIsStillABucket() {
        S3Location l = parse("s3://data.example.org/x");
        assertEquals("data.example.org", l.bucket());
        assertTrue(l.isAws());
    }

    @Test
    void s3SchemeWithAwsHostIsPathStyle() {
        // netcdf-c's own example: ncgen -o "s3://s3.us-west-1.amazonaws.com/datasetbucket"
        S3Location l = parse("s3://s3.us-west-1.amazonaws.com/datasetbucket");
        assertEquals("datasetbucket", l.bucket());
        assertEquals("", l.key());
        assertEquals("us-west-1", l.hostRegion());
        assertTrue(l.isAws());
    }

    @Test
    void pathStyleWithRegion() {
        S3Location l = parse("https://s3.us-west-2.amazonaws.com/my-bucket/path/ds");
        assertEquals("my-bucket", l.bucket());
        assertEquals("path/ds", l.key());
        assertEquals("us-west-2", l.hostRegion());
        assertTrue(l.pathStyle());
        assertTrue(l.isAws());
    }

    @Test
    void pathStyleWithoutRegionAndLegacyDash() {
        S3Location l = parse("https://s3.amazonaws.com/noaa-goes16/ABI/x.nc");
        assertEquals("noaa-goes16", l.bucket());
        assertNull(l.hostRegion());
        assertEquals(
                "eu-west-1", parse("https://s3-eu-west-1.amazonaws.com/b12/k").hostRegion());
    }

    @Test
    void virtualHost() {
        S3Location l = parse("https://my-bucket.s3.eu-central-1.amazonaws.com/path/ds.zarr");
        assertEquals("my-bucket", l.bucket());
        assertEquals("path/ds.zarr", l.key());
        assertEquals("eu-central-1", l.hostRegion());
        assertFalse(l.pathStyle());
        assertTrue(l.isAws());
        assertEquals(
                "my.dotted.bucket",
                parse("https://my.dotted.bucket.s3.us-east-2.amazonaws.com/k").bucket());
        assertNull(parse("https://my-bucket.s3.amazonaws.com/k").hostRegion());
    }

    @Test
    void otherHostIsAPathStyleEndpoint() {
        S3Location l = parse("https://s3.example.org:9000/bucket/key/ds#ignored".replace("#ignored", ""));
        assertEquals(URI.create("https://s3.example.org:9000"), l.endpoint());
        assertEquals("bucket", l.bucket());
        assertEquals("key/ds", l.key());
        assertTrue(l.pathStyle());
        assertFalse(l.isAws());
        assertNull(l.hostRegion());
        assertEquals("https://s3.example.org:9000/bucket/key/ds", l.url());
    }

    @Test
    void httpIsAllowedForOtherHosts() {
        S3Location l = parse("http://127.0.0.1:8080/bucket/prefix/ds.file");
        assertEquals(URI.create("http://127.0.0.1:8080"), l.endpoint());
        assertEquals("bucket", l.bucket());
        assertEquals("prefix/ds.file", l.key());
        assertEquals(
                "http://minio.local",
                parse("http://minio.local/bkt/x").endpoint().toString());
    }

    @Test
    void s3SchemeWithPortIsAnHttpsEndpoint() {
        S3Location l = parse("s3://minio.local:9000/bucket/k");
        assertEquals(URI.create("https://minio.local:9000"), l.endpoint());
        assertEquals("bucket", l.bucket());
    }

    @Test
    void percentEncodedKeysAreDecoded() {
        assertEquals("a b/c", parse("s3://bucket/a%20b/c").key());
    }

    @Test
    void resolveAndUrl() {
        S3Location l = parse("http://127.0.0.1:1/bucket/p/ds");
        assertEquals("p/ds/.zgroup", l.resolve(".zgroup"));
        assertEquals("http://127.0.0.1:1/bucket/p/ds/v/0.0", l.url(l.resolve("v/0.0")));
        S3Location root = parse("s3://bucket");
        assertEquals(".zgroup", root.resolve(".zgroup"));
        assertEquals("s3://bucket/.zgroup", root.url(".zgroup"));
    }

    @Test
    void badUrlsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> parse("ftp://bucket/x"));
        assertThrows(IllegalArgumentException.class, () -> parse("https://minio.local/"), "no bucket");
        assertThrows(IllegalArgumentException.class, () -> parse("https://s3.us-west-2.amazonaws.com/"), "no bucket");
        assertThrows(
                IllegalArgumentException.class, () -> parse("https://foo.bar.amazonaws.com/b/k"), "not an S3 host");
        assertThrows(IllegalArgumentException.class, () -> parse("s3://ab/k"), "bucket too short");
        assertThrows(IllegalArgumentException.class, () -> parse("https://host/bucket/k?x=1"), "query");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> parse("https://user:secret@host/bucket/k"));
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
    }
}
