package io.nczarr.error;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one function that makes a dataset location fit for messages and logs: every exception and log
 * line that can carry a URL passes it through {@link #redact(String)}. It hides
 *
 * <ul>
 *   <li>user info, dropped whole: {@code http://user:pw@host/x} becomes {@code http://host/x} (the user
 *       name may be an access key id, a user info without {@code :} a token);
 *   <li>the values of query parameters and netcdf-c fragment keys whose names say they hold a secret
 *       ({@link #isSecretName}): {@code ?X-Amz-Signature=abc} becomes {@code ?X-Amz-Signature=REDACTED}.
 * </ul>
 *
 * Everything else stays as written, so the location can still be recognised. It lives in {@code error},
 * the leaf every layer may use, so that URL parsing, S3 and the byte-range reader share it. When the
 * text is ambiguous (an {@code @} before the first {@code /} after the authority) it hides more, not
 * less. Limits: a secret in the path itself, or a raw {@code /} inside a password, is not recognised.
 */
public final class Redaction {
    private Redaction() {}

    /** What replaces a hidden value. */
    public static final String MASK = "REDACTED";

    private static final Pattern SCHEME_SLASHES = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://");

    /** Name parts that mark a secret anywhere in a parameter name. */
    private static final List<String> SECRET_PARTS = List.of(
            "token",
            "secret",
            "signature",
            "credential",
            "password",
            "passwd",
            "apikey",
            "api_key",
            "api-key",
            "accesskey",
            "access_key",
            "access-key",
            "privatekey",
            "private_key",
            "authorization");

    /** Whole names that hold secrets although they say little ({@code sig} of Azure SAS, {@code key} of API keys). */
    private static final List<String> SECRET_NAMES = List.of("sig", "key", "pwd", "auth");

    /** A location (URL or path) fit for messages; {@code null} stays {@code null}. */
    public static String redact(String location) {
        if (location == null) {
            return null;
        }
        StringBuilder out = new StringBuilder(location.length());
        String rest = userInfoHidden(location, out);
        int hash = rest.indexOf('#');
        String beforeFragment = hash < 0 ? rest : rest.substring(0, hash);
        int question = beforeFragment.indexOf('?');
        if (question < 0) {
            out.append(beforeFragment);
        } else {
            out.append(beforeFragment, 0, question + 1).append(parameters(beforeFragment.substring(question + 1)));
        }
        if (hash >= 0) {
            out.append('#').append(parameters(rest.substring(hash + 1)));
        }
        return out.toString();
    }

    /** {@link #redact(String)} of the URI's text; {@code null} stays {@code null}. */
    public static String redact(URI uri) {
        return uri == null ? null : redact(uri.toString());
    }

    /**
     * Whether a query parameter or fragment key of this name holds a secret (case-insensitive): any name
     * containing {@code token}, {@code secret}, {@code signature}, {@code credential}, {@code password},
     * an API, access or private key; the names {@code sig}, {@code key}, {@code pwd}, {@code auth}; and
     * names ending in {@code _key}, {@code -key} or {@code .key}. Covers presigned AWS URLs
     * ({@code X-Amz-Signature}, {@code X-Amz-Credential}, {@code X-Amz-Security-Token}, the older
     * {@code Signature} and {@code AWSAccessKeyId}), Azure SAS ({@code sig}) and OAuth
     * ({@code access_token}).
     */
    public static boolean isSecretName(String name) {
        String n = decoded(name).trim().toLowerCase(Locale.ROOT);
        if (SECRET_NAMES.contains(n) || n.endsWith("_key") || n.endsWith("-key") || n.endsWith(".key")) {
            return true;
        }
        for (String part : SECRET_PARTS) {
            if (n.contains(part)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Appends {@code scheme://} of {@code s} to {@code out} and returns what follows it without the user
     * info (all of {@code s} when there is no scheme). The user info ends at the last {@code @} before the
     * first {@code /} of the path, so a {@code #}, {@code ?} or {@code @} inside a password is still dropped.
     */
    private static String userInfoHidden(String s, StringBuilder out) {
        var m = SCHEME_SLASHES.matcher(s);
        if (!m.lookingAt()) {
            return s;
        }
        int start = m.end();
        out.append(s, 0, start);
        int slash = s.indexOf('/', start);
        int end = slash < 0 ? s.length() : slash;
        int at = s.lastIndexOf('@', end - 1);
        return at < start ? s.substring(start) : s.substring(at + 1);
    }

    /** {@code a=1&token=x&flag} with the values of secret names hidden; the rest as written. */
    private static String parameters(String text) {
        String[] parts = text.split("&", -1);
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            int eq = p.indexOf('=');
            out.append(i > 0 ? "&" : "");
            if (eq >= 0 && isSecretName(p.substring(0, eq))) {
                out.append(p, 0, eq + 1).append(MASK);
            } else {
                out.append(p);
            }
        }
        return out.toString();
    }

    /** The percent-decoded name ({@code X%2DAmz%2DSignature}); the raw text when it does not decode. */
    private static String decoded(String name) {
        try {
            return URLDecoder.decode(name, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return name;
        }
    }
}
