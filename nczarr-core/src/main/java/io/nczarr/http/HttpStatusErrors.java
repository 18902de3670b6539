package io.nczarr.http;

import io.nczarr.error.StoreException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The exception for an HTTP error status, named after the URL with the start of the error body.
 *
 * <ul>
 * <li>404/410: {@link FileNotFoundException}, 401/403: {@link AccessDeniedException}, the types
 * netCDF-Java callers (and THREDDS) already map to "not found" and "forbidden"; each carries a
 * non-retryable {@link StoreException} as its cause, with the dataset field.</li>
 * <li>429 and 500/502/503/504: a retryable {@link StoreException}.</li>
 * <li>Any other status: a {@link StoreException} that is not retryable.</li>
 * </ul>
 */
public final class HttpStatusErrors {
    private static final Pattern S3_CODE = Pattern.compile("<Code>([^<]{1,100})</Code>");
    private static final int SUMMARY_LIMIT = 160;

    private HttpStatusErrors() {}

    /**
     * @param location the redacted URL
     * @param status the response status
     * @param body the start of the error body, or ""
     * @param what the request, e.g. {@code GET bytes=0-9}
     */
    public static IOException of(String location, int status, String body, String what) {
        String msg = "HTTP " + status + reason(status) + " for " + what + summary(body);
        switch (status) {
            case 404:
            case 410: {
                FileNotFoundException e = new FileNotFoundException(location + ": " + msg);
                e.initCause(new StoreException(location, null, msg, false, null));
                return e;
            }
            case 401:
            case 403: {
                String detail = msg + " (access denied: is the object public, or the presigned URL still valid?)";
                AccessDeniedException e = new AccessDeniedException(location, null, detail);
                e.initCause(new StoreException(location, null, detail, false, null));
                return e;
            }
            case 429:
            case 500:
            case 502:
            case 503:
            case 504:
                return new StoreException(location, null, msg, true, null);
            default:
                return new StoreException(location, null, msg, false, null);
        }
    }

    private static String reason(int status) {
        return switch (status) {
            case 400 -> " Bad Request";
            case 401 -> " Unauthorized";
            case 403 -> " Forbidden";
            case 404 -> " Not Found";
            case 405 -> " Method Not Allowed";
            case 410 -> " Gone";
            case 416 -> " Range Not Satisfiable";
            case 429 -> " Too Many Requests";
            case 500 -> " Internal Server Error";
            case 502 -> " Bad Gateway";
            case 503 -> " Service Unavailable";
            case 504 -> " Gateway Timeout";
            default -> "";
        };
    }

    /** The S3 {@code <Code>} of an error body, else its text without tags, shortened; "" for none. */
    private static String summary(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        Matcher code = S3_CODE.matcher(body);
        if (code.find()) {
            return " (" + code.group(1) + ")";
        }
        String s = body.replaceAll("<[^>]*>", " ").replaceAll("\\s+", " ").trim();
        if (s.isEmpty()) {
            return "";
        }
        return " (" + (s.length() > SUMMARY_LIMIT ? s.substring(0, SUMMARY_LIMIT) + "..." : s) + ")";
    }
}
