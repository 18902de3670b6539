package io.nczarr.s3;

import io.nczarr.http.Deadline;
import io.nczarr.http.ReadPreconditions;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.apache.hc.core5.http.protocol.HttpContext;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * GetObject, HeadObject and ListObjectsV2 without the SDK's request pipeline (and without building its client): the request is signed with the SDK's own SigV4
 * signer and sent on the same kind of pooled Apache 5 connection, and the answer is handed back
 * as an {@link S3Answer} (errors as the SDK's {@link S3Exception}
 * with status and error code), so {@link S3Bucket} reads, checks and classifies it exactly as an SDK
 * answer. What it skips is per-request work a GET does not need (endpoint rules, interceptors,
 * metrics, checksum stages, response unmarshalling): it cost about twice the CPU per GET.
 *
 * <p>Only for endpoints whose URL follows plainly from the spec: an S3-compatible server without a
 * path prefix, or AWS in a standard region. An AWS bucket in another region than the one signed for
 * answers with a redirect ({@link WrongRegion}): the bucket then goes through the SDK, which follows it.
 */
final class DirectGets implements Closeable {

    /** The part of an error answer read for its code and message; S3 error documents are far smaller. */
    private static final int MAX_ERROR_BODY = 16 * 1024;

    private static final Pattern AWS_REGION = Pattern.compile("[a-z]{2}-[a-z]+-\\d{1,2}");
    private static final Pattern CODE = Pattern.compile("<Code>([^<]*)</Code>");
    private static final Pattern MESSAGE = Pattern.compile("<Message>([^<]*)</Message>");
    private static final Pattern DNS_BUCKET = Pattern.compile("[a-z0-9][a-z0-9-]{1,61}[a-z0-9]");

    private final SdkHttpClient http;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();
    private final AwsCredentialsProvider credentials;
    private final String region;
    private final URI endpoint;
    private final boolean pathStyle;

    private DirectGets(SdkHttpClient http, S3ClientSpec spec, URI endpoint, boolean pathStyle) {
        this.http = http;
        this.credentials = spec.credentials() instanceof S3Credentials.Anonymous
                ? null
                : spec.credentials().provider();
        this.region = spec.region();
        this.endpoint = endpoint;
        this.pathStyle = pathStyle;
    }

    /**
     * Direct GETs for the spec, or {@code null} when its endpoint is one only the SDK knows how to
     * reach (an endpoint with a path, a non-standard AWS partition).
     */
    static DirectGets create(S3ClientSpec spec) {
        URI endpoint = spec.endpoint();
        boolean pathStyle = spec.pathStyle();
        if (endpoint != null) {
            String path = endpoint.getRawPath();
            if (endpoint.getHost() == null
                    || (path != null && !path.isEmpty() && !path.equals("/"))
                    || endpoint.getRawQuery() != null) {
                return null;
            }
        } else {
            String r = spec.region();
            if (r == null || !AWS_REGION.matcher(r).matches() || r.startsWith("cn-") || r.startsWith("us-gov-")) {
                return null;
            }
            endpoint = URI.create("https://s3." + r + ".amazonaws.com");
        }
        Apache5HttpClient.Builder http = S3ClientFactory.httpClient(spec);
        if ("http".equalsIgnoreCase(endpoint.getScheme())) {
            // requests go to this endpoint only: no TLS context (the trust store read) for a plain-http server
            http.tlsSocketStrategy(DirectGets::noTls);
        }
        return new DirectGets(http.build(), spec, endpoint, pathStyle);
    }

    private static SSLSocket noTls(Socket socket, String target, int port, Object attachment, HttpContext context)
            throws SSLException {
        throw new SSLException("no TLS to " + target + ": the S3 endpoint is plain http");
    }

    /**
     * Sends one GET and returns once the headers are in (the body is left to the caller, who must close
     * or abort it). An error answer is an {@link S3Exception} as the SDK would raise it; a failure to
     * connect or send an {@link SdkClientException} with the I/O failure as its cause; no answer by the
     * deadline an {@link ApiCallAttemptTimeoutException}.
     *
     * @param range a {@code Range} header value, or {@code null} for the whole object
     * @throws WrongRegion when AWS redirects the bucket to another region
     */
    S3Answer get(String bucket, String key, String range, Deadline d) {
        return get(bucket, key, range, ReadPreconditions.NONE, d);
    }

    /** As above, with {@code If-Match} / {@code If-Unmodified-Since} from {@code pre}. */
    S3Answer get(String bucket, String key, String range, ReadPreconditions pre, Deadline d) {
        SdkHttpFullRequest.Builder b =
                SdkHttpFullRequest.builder().method(SdkHttpMethod.GET).uri(objectUri(bucket, key));
        if (range != null) {
            b.putHeader("Range", range);
        }
        if (pre.ifMatch() != null) {
            b.putHeader("If-Match", pre.ifMatch());
        }
        if (pre.ifUnmodifiedSince() != null) {
            b.putHeader("If-Unmodified-Since", pre.ifUnmodifiedSinceHeader());
        }
        HttpExecuteResponse response = send(b, d);
        SdkHttpResponse head = response.httpResponse();
        return new S3Answer(
                body(response),
                head.firstMatchingHeader("Content-Length")
                        .map(DirectGets::parseLength)
                        .orElse(null),
                head.firstMatchingHeader("Content-Range").orElse(null),
                head.firstMatchingHeader("ETag").orElse(null),
                null,
                head.firstMatchingHeader("Last-Modified").orElse(null));
    }

    /** One HEAD: the object's Content-Length (null when the answer has none). */
    Long head(String bucket, String key, Deadline d) {
        HttpExecuteResponse response =
                send(SdkHttpFullRequest.builder().method(SdkHttpMethod.HEAD).uri(objectUri(bucket, key)), d);
        S3Bodies.release(body(response), true);
        return response.httpResponse()
                .firstMatchingHeader("Content-Length")
                .map(DirectGets::parseLength)
                .orElse(null);
    }

    /**
     * One page of ListObjectsV2 with delimiter {@code /} ({@code token}: the previous page's continuation
     * token, or {@code null}); an answer over {@link ListPages#MAX_PAGE_BYTES}
     * or one that is not a ListBucketResult is an {@link SdkClientException}.
     */
    ListPages list(String bucket, String prefix, String token, Deadline d) {
        SdkHttpFullRequest.Builder b = SdkHttpFullRequest.builder()
                .method(SdkHttpMethod.GET)
                .uri(bucketUri(bucket))
                .putRawQueryParameter("list-type", "2")
                .putRawQueryParameter("delimiter", "/")
                .putRawQueryParameter("prefix", prefix);
        if (token != null) {
            b.putRawQueryParameter("continuation-token", token);
        }
        AbortableInputStream body = body(send(b, d));
        boolean complete = false;
        // within the attempt's deadline, as every body is read
        try (BodyWatchdog.Watch w = BodyWatchdog.watch(body, d)) {
            byte[] page = body.readNBytes(ListPages.MAX_PAGE_BYTES + 1);
            if (w.fired()) {
                throw ApiCallAttemptTimeoutException.create(d.givenMillis());
            }
            if (page.length > ListPages.MAX_PAGE_BYTES) {
                throw SdkClientException.create("the LIST answer is over " + ListPages.MAX_PAGE_BYTES
                        + " bytes, more than any page of 1000 names");
            }
            complete = true;
            return ListPages.parse(page);
        } catch (IOException e) {
            throw SdkClientException.builder()
                    .message("Unable to read the LIST answer: " + e.getMessage())
                    .cause(e)
                    .build();
        } finally {
            S3Bodies.release(body, complete);
        }
    }

    /**
     * Signs and sends a request and returns once the headers are in, with a 200 or 206; any other status is
     * thrown as {@link #failure}.
     */
    private HttpExecuteResponse send(SdkHttpFullRequest.Builder b, Deadline d) {
        SdkHttpRequest request = sign(b.build());
        ExecutableHttpRequest call = http.prepareRequest(
                HttpExecuteRequest.builder().request(request).build());
        HttpExecuteResponse response;
        try (BodyWatchdog.Watch w = BodyWatchdog.watch(call, d)) {
            try {
                response = call.call();
            } catch (IOException | RuntimeException e) {
                if (w.fired()) {
                    throw ApiCallAttemptTimeoutException.create(d.givenMillis());
                }
                throw SdkClientException.builder()
                        .message("Unable to execute HTTP request: " + e.getMessage())
                        .cause(e)
                        .build();
            }
        }
        int status = response.httpResponse().statusCode();
        if (status == 200 || status == 206) {
            return response;
        }
        throw failure(response.httpResponse(), body(response), d);
    }

    private static AbortableInputStream body(HttpExecuteResponse response) {
        return response.responseBody().orElseGet(() -> AbortableInputStream.create(InputStream.nullInputStream()));
    }

    private SdkHttpRequest sign(SdkHttpRequest request) {
        if (credentials == null) {
            return request;
        }
        return signer.sign(r -> r.request(request)
                        .identity(credentials.resolveCredentials())
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                        .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                        .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
                        .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
                        .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false))
                .request();
    }

    /** Virtual-hosted for AWS buckets whose names are host names, else path style, as the SDK addresses them. */
    URI objectUri(String bucket, String key) {
        return uri(bucket, "/" + SdkHttpUtils.urlEncodeIgnoreSlashes(key));
    }

    /** The bucket itself (for LIST): {@code /bucket} in path style, {@code /} on the bucket's host. */
    URI bucketUri(String bucket) {
        return uri(bucket, "");
    }

    private URI uri(String bucket, String keyPath) {
        String host = endpoint.getHost();
        String path;
        if (!pathStyle && DNS_BUCKET.matcher(bucket).matches()) {
            host = bucket + "." + host;
            path = keyPath.isEmpty() ? "/" : keyPath;
        } else {
            path = "/" + SdkHttpUtils.urlEncode(bucket) + keyPath;
        }
        String port = endpoint.getPort() < 0 ? "" : ":" + endpoint.getPort();
        return URI.create(endpoint.getScheme() + "://" + host + port + path);
    }

    private static Long parseLength(String v) {
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            return null; // checked against the range like a missing length
        }
    }

    /** The SDK's exception for an error answer: status, S3 error code and message from the XML body. */
    private static SdkException failure(SdkHttpResponse head, AbortableInputStream body, Deadline d) {
        int status = head.statusCode();
        String xml;
        // within the attempt's deadline: a server dripping its error body must not hold the reader
        try (InputStream in = body;
                BodyWatchdog.Watch w = BodyWatchdog.watch(body, d)) {
            byte[] b = in.readNBytes(MAX_ERROR_BODY);
            if (b.length == MAX_ERROR_BODY || w.fired()) {
                body.abort(); // not at its end: closing would drain the rest
            }
            xml = new String(b, StandardCharsets.UTF_8);
        } catch (IOException e) {
            xml = "";
        }
        String code = element(xml, CODE);
        String message = element(xml, MESSAGE);
        if (status == 301 || status == 307 || "AuthorizationHeaderMalformed".equals(code)) {
            return new WrongRegion(
                    head.firstMatchingHeader("x-amz-bucket-region").orElse(null));
        }
        if (code == null && status == 404) {
            code = "NoSuchKey"; // a HEAD-like empty 404 body
        }
        return S3Exception.builder()
                .statusCode(status)
                .awsErrorDetails(AwsErrorDetails.builder()
                        .serviceName("S3")
                        .errorCode(code)
                        .errorMessage(message)
                        .build())
                .message((message == null ? "HTTP " + status : message) + " (Service: S3, Status Code: " + status + ")")
                .build();
    }

    private static String element(String xml, Pattern element) {
        Matcher m = element.matcher(xml);
        return m.find() ? unescape(m.group(1).trim()) : null;
    }

    private static String unescape(String s) {
        return s.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&amp;", "&");
    }

    @Override
    public void close() {
        http.close();
    }

    @Override
    public String toString() {
        return "DirectGets[" + endpoint + ", " + region + "]";
    }

    /** AWS answered that the bucket lives in another region: the SDK's client, which follows that, takes over. */
    static final class WrongRegion extends SdkClientException {
        private static final long serialVersionUID = 1L;

        WrongRegion(String region) {
            super(SdkClientException.builder()
                    .message("bucket is in region " + (region == null ? "(not given)" : region)));
        }
    }
}
