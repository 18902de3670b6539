package io.nczarr.url;

import io.nczarr.error.Redaction;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A dataset location as netcdf-c understands it: {@code scheme://...#key=value&mode=a,b}, or a
 * plain local path. Parsing only; nothing is opened here. {@link #toString()} and every parse error
 * show the location {@linkplain Redaction#redact(String) redacted} (no password, token or signature).
 *
 * @param original the string the user gave
 * @param scheme {@code file}, {@code s3}, {@code http} or {@code https}
 * @param localPath for {@code file}: the local path; otherwise {@code null}
 * @param uri for remote schemes: the URI without fragment; otherwise {@code null}
 * @param parameters all fragment keys, lower-cased keys, in order
 * @param modes the {@code mode} flags after netcdf-c's inferences
 */
public record DatasetUrl(
        String original, String scheme, Path localPath, URI uri, Map<String, String> parameters, Set<Mode> modes) {

    /** Which metadata conventions to read. */
    public enum Format {
        /** NCZarr if the store has NCZarr metadata, else pure Zarr (plain paths, no mode given). */
        AUTO,
        /** NCZarr metadata (pure-Zarr rules if the store has none, as netcdf-c does). */
        NCZARR,
        /** Pure Zarr: NCZarr keys are ignored (hidden). */
        ZARR
    }

    /** Where the bytes live. */
    public enum StoreKind {
        DIRECTORY,
        ZIP,
        S3,
        BYTES,
        /** A plain HTTP(S) server, without listing. */
        HTTP,
        /** A kerchunk reference file: keys map to inline values or byte ranges of other files. */
        REFERENCE
    }

    public DatasetUrl {
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
        modes = Collections.unmodifiableSet(modes.isEmpty() ? EnumSet.noneOf(Mode.class) : EnumSet.copyOf(modes));
    }

    /**
     * Parses a URL or path.
     *
     * @throws IllegalArgumentException for an unknown scheme, an unknown mode flag or a
     *     contradictory mode (e.g. {@code zip,s3})
     */
    public static DatasetUrl parse(String location) {
        if (location == null || location.isBlank()) {
            throw new IllegalArgumentException("empty dataset location");
        }
        String text = location.trim();
        String fragment = null;
        int hash = text.indexOf('#');
        if (hash >= 0) {
            fragment = text.substring(hash + 1);
            text = text.substring(0, hash);
        }
        Map<String, String> params = parseFragment(fragment, location);
        Set<Mode> modes = parseModes(params.get("mode"), location);

        String scheme = schemeOf(text);
        if (scheme == null) {
            return new DatasetUrl(
                    location, "file", Paths.get(text).toAbsolutePath().normalize(), null, params, modes);
        }
        switch (scheme) {
            case "file": {
                URI u = toUri(text, location);
                String path = u.getPath();
                if (path == null || path.isEmpty()) {
                    // "file:relative/path" is opaque: take the text after the colon
                    path = decode(text.substring(5), "path", location);
                }
                return new DatasetUrl(
                        location, scheme, Paths.get(path).toAbsolutePath().normalize(), null, params, modes);
            }
            case "s3":
            case "http":
            case "https":
                if (modes.contains(Mode.FILE) || modes.contains(Mode.ZIP)) {
                    String flag = modes.contains(Mode.FILE) ? "file" : "zip";
                    throw new IllegalArgumentException("mode flag " + flag + " names a local "
                            + (flag.equals("file") ? "directory" : "zip file") + ", but "
                            + Redaction.redact(location) + " is a " + scheme + " URL (use the flag s3 or http,"
                            + " or give a local path)");
                }
                return new DatasetUrl(location, scheme, null, toUri(text, location), params, modes);
            default:
                throw new IllegalArgumentException("unsupported URL scheme '" + scheme + "' in "
                        + Redaction.redact(location) + " (expected file, s3, http or https)");
        }
    }

    private static String schemeOf(String text) {
        int colon = text.indexOf(':');
        // a single letter before ':' is a Windows drive, not a scheme
        if (colon < 2) {
            return null;
        }
        String s = text.substring(0, colon);
        for (int i = 0; i < s.length(); i++) { // [A-Za-z][A-Za-z0-9+.-]*, without a regex
            char c = s.charAt(i);
            boolean letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
            if (!letter && (i == 0 || !((c >= '0' && c <= '9') || c == '+' || c == '.' || c == '-'))) {
                return null;
            }
        }
        return s.toLowerCase(Locale.ROOT);
    }

    private static URI toUri(String text, String location) {
        try {
            return new URI(text.replace(" ", "%20"));
        } catch (URISyntaxException e) {
            // not e.getMessage(), nor e as the cause: both quote the whole URL, secrets included
            throw new IllegalArgumentException("malformed URL " + Redaction.redact(location) + ": " + e.getReason()
                    + (e.getIndex() >= 0 ? " at index " + e.getIndex() : ""));
        }
    }

    /** netcdf-c fragments: {@code key=value&key=value}; a bare key (e.g. {@code #bytes}) is a mode flag. */
    private static Map<String, String> parseFragment(String fragment, String location) {
        Map<String, String> params = new LinkedHashMap<>();
        if (fragment == null || fragment.isBlank()) {
            return params;
        }
        StringBuilder bareFlags = new StringBuilder();
        for (String part : fragment.split("&")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            String key = (eq < 0 ? part : part.substring(0, eq)).trim().toLowerCase(Locale.ROOT);
            String value = eq < 0 ? "" : decode(part.substring(eq + 1).trim(), "value of key '" + key + "'", location);
            if (eq < 0 && Mode.parse(key) != null) {
                bareFlags.append(bareFlags.length() == 0 ? "" : ",").append(key);
                continue;
            }
            if (key.isEmpty()) {
                throw new IllegalArgumentException("empty key in URL fragment of " + Redaction.redact(location));
            }
            params.put(key, value);
        }
        if (bareFlags.length() > 0) {
            String mode = params.get("mode");
            params.put("mode", mode == null || mode.isEmpty() ? bareFlags.toString() : mode + "," + bareFlags);
        }
        return params;
    }

    /** Percent-decoded text; a bad escape names what held it, not the text (it may be a secret). */
    private static String decode(String text, String what, String location) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "malformed percent escape in the " + what + " of " + Redaction.redact(location));
        }
    }

    /**
     * netcdf-c's inferences: xarray/noxarray imply zarr, zarr implies the nczarr dispatcher; reference files
     * describe pure Zarr.
     */
    private static void addImplied(Set<Mode> modes) {
        if (modes.contains(Mode.XARRAY)
                || modes.contains(Mode.NOXARRAY)
                || modes.contains(Mode.KERCHUNK)
                || modes.contains(Mode.ICECHUNK)) {
            modes.add(Mode.ZARR);
        }
        if (modes.contains(Mode.ZARR)) {
            modes.add(Mode.NCZARR);
        }
    }

    private static Set<Mode> parseModes(String mode, String location) {
        Set<Mode> modes = EnumSet.noneOf(Mode.class);
        if (mode == null || mode.isBlank()) {
            return modes;
        }
        for (String flag : mode.split(",")) {
            if (flag.isBlank()) {
                continue;
            }
            Mode m = Mode.parse(flag);
            if (m == null) {
                throw new IllegalArgumentException(
                        "unknown mode flag '" + flag.trim() + "' in " + Redaction.redact(location)
                                + " (known: nczarr, zarr, xarray, noxarray, file, zip, s3, http, bytes, kerchunk,"
                                + " icechunk)");
            }
            modes.add(m);
        }
        addImplied(modes);
        if (modes.contains(Mode.XARRAY) && modes.contains(Mode.NOXARRAY)) {
            throw new IllegalArgumentException(
                    "mode flags xarray and noxarray contradict each other in " + Redaction.redact(location));
        }
        int stores = (modes.contains(Mode.FILE) ? 1 : 0)
                + (modes.contains(Mode.ZIP) ? 1 : 0)
                + (modes.contains(Mode.S3) ? 1 : 0)
                + (modes.contains(Mode.HTTP) ? 1 : 0);
        if (stores > 1) {
            throw new IllegalArgumentException(
                    "more than one storage flag (file, zip, s3, http) in " + Redaction.redact(location));
        }
        if (modes.contains(Mode.BYTES) && (modes.contains(Mode.KERCHUNK) || modes.contains(Mode.ZIP))) {
            throw new IllegalArgumentException("mode flag bytes (one netCDF file) contradicts "
                    + (modes.contains(Mode.ZIP) ? "zip" : "kerchunk") + " in " + Redaction.redact(location));
        }
        if (modes.contains(Mode.ICECHUNK)
                && (modes.contains(Mode.BYTES) || modes.contains(Mode.KERCHUNK) || modes.contains(Mode.ZIP))) {
            String other = modes.contains(Mode.BYTES) ? "bytes" : modes.contains(Mode.KERCHUNK) ? "kerchunk" : "zip";
            throw new IllegalArgumentException(
                    "mode flag icechunk (a repository) contradicts " + other + " in " + Redaction.redact(location));
        }
        return modes;
    }

    /** {@code mode=...,icechunk}: an Icechunk repository, read as the Zarr v3 store of one of its snapshots. */
    public boolean isIcechunk() {
        return modes.contains(Mode.ICECHUNK);
    }

    /** The metadata conventions to apply. */
    public Format format() {
        if (modes.contains(Mode.ZARR)) {
            return Format.ZARR;
        }
        if (modes.contains(Mode.NCZARR)) {
            return Format.NCZARR;
        }
        return Format.AUTO;
    }

    /** Whether xarray's {@code _ARRAY_DIMENSIONS} names dimensions (default yes, as in netcdf-c). */
    public boolean useXarrayDimensions() {
        return !modes.contains(Mode.NOXARRAY);
    }

    /** {@code mode=bytes}: one netCDF file read by byte ranges, not a Zarr store. */
    public boolean isBytes() {
        return modes.contains(Mode.BYTES);
    }

    /**
     * The store kind the URL itself states, by the one rule of the user guide ("Which reader a URL gets"):
     *
     * <ol>
     *   <li>{@code bytes} → one netCDF file by byte ranges; {@code kerchunk} → a reference file (wherever it
     *       lives: {@link #referenceLocationKind()});
     *   <li>a storage flag: {@code zip}, {@code s3}, {@code http}, {@code file};
     *   <li>{@code s3://}, or an http(s) URL on an AWS S3 host name ({@code *.amazonaws.com}, except the
     *       {@code s3-website} endpoints, which are plain HTTP) or with an {@code aws.*} fragment key → S3 API;
     *   <li>another http(s) URL with {@code zarr}/{@code nczarr} mode → the plain HTTP store.
     * </ol>
     *
     * Empty when the URL does not say: a local path (directory, zip, netCDF file or reference file, told
     * by what is on disk) or an http(s) URL without a mode (told by one small ranged GET); the store layer
     * looks ({@code Stores.resolve}).
     */
    public Optional<StoreKind> declaredStoreKind() {
        if (isBytes()) {
            return Optional.of(StoreKind.BYTES);
        }
        if (modes.contains(Mode.KERCHUNK)) {
            return Optional.of(StoreKind.REFERENCE);
        }
        return locationKind();
    }

    /**
     * Where a reference file ({@code kerchunk}) is read from: a local file ({@link StoreKind#DIRECTORY}),
     * {@link StoreKind#S3} or {@link StoreKind#HTTP}, by the same rule as stores.
     */
    public StoreKind referenceLocationKind() {
        if ("file".equals(scheme)) {
            return StoreKind.DIRECTORY;
        }
        return locationKind().orElse(StoreKind.HTTP);
    }

    private Optional<StoreKind> locationKind() {
        if (modes.contains(Mode.ZIP)) {
            return Optional.of(StoreKind.ZIP);
        }
        if (modes.contains(Mode.S3)) {
            return Optional.of(StoreKind.S3);
        }
        if (modes.contains(Mode.HTTP)) {
            return Optional.of(StoreKind.HTTP);
        }
        if (modes.contains(Mode.FILE)) {
            return Optional.of(StoreKind.DIRECTORY);
        }
        if ("file".equals(scheme)) {
            return Optional.empty();
        }
        if ("s3".equals(scheme) || isAwsHost() || hasAwsParameter()) {
            return Optional.of(StoreKind.S3);
        }
        if (modes.contains(Mode.NCZARR) || modes.contains(Mode.ZARR)) {
            return Optional.of(StoreKind.HTTP);
        }
        return Optional.empty();
    }

    private boolean isAwsHost() {
        return uri != null && isAwsS3ApiHost(uri.getHost());
    }

    /**
     * Whether {@code host} is an AWS S3 API host: {@code *.amazonaws.com(.cn)}, but not a bucket's website
     * endpoint (plain HTTP). {@code null} is not.
     */
    public static boolean isAwsS3ApiHost(String host) {
        if (host == null) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        return (h.endsWith(".amazonaws.com") || h.endsWith(".amazonaws.com.cn")) && !h.contains("s3-website");
    }

    private boolean hasAwsParameter() {
        return parameters.keySet().stream().anyMatch(k -> k.startsWith("aws.") || k.equals("awsprofile"));
    }

    /** This URL with one more mode flag (the kind the store layer found by looking) and, if given, another URI. */
    public DatasetUrl withMode(Mode mode, URI newUri) {
        Set<Mode> m = EnumSet.noneOf(Mode.class);
        m.addAll(modes);
        m.add(mode);
        addImplied(m);
        return new DatasetUrl(original, scheme, localPath, newUri != null ? newUri : uri, parameters, m);
    }

    /** A fragment parameter, or {@code null}. Keys are case-insensitive. */
    public String parameter(String key) {
        return parameters.get(key.toLowerCase(Locale.ROOT));
    }

    /** The location for messages and logs: {@link #original()} without credentials. */
    @Override
    public String toString() {
        return Redaction.redact(original);
    }
}
