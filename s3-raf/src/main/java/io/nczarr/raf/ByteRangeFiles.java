package io.nczarr.raf;

import io.nczarr.error.NcZarrException;
import io.nczarr.error.Redaction;
import io.nczarr.error.StoreException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.http.auth.RequestAuth;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.source.ObjectSources;
import io.nczarr.source.SourceFailures;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import ucar.nc2.NetcdfFile;

/**
 * Opens one netCDF-3 or netCDF-4/HDF5 file stored as a single remote object ({@code #mode=bytes}):
 * a {@link RangeSource} for the URL, a {@link BlockCacheRandomAccessFile} over it, and cdm's own
 * netCDF-3/HDF5 readers on top ({@code NetcdfFile.open(raf, location, null, null)}).
 *
 * <p>The clients are resources of the caller: the overloads taking an {@link HttpClient} and an
 * {@link S3ClientPool} use those; the others use the process default {@link NcZarrOptions#shared()}.
 */
public final class ByteRangeFiles {
    private ByteRangeFiles() {}

    /** The source for a URL without fragment keys: http/https as plain HTTP, s3 with the default profile. */
    public static RangeSource openSource(URI uri, ByteRangeConfig config) throws IOException {
        return openSource(uri, Map.of(), config);
    }

    /**
     * The source for a URL, as {@link #openSource(URI, Map, ByteRangeConfig, HttpClient, S3ClientPool)},
     * with the clients of {@link NcZarrOptions#shared()}.
     */
    public static RangeSource openSource(URI uri, Map<String, String> fragment, ByteRangeConfig config)
            throws IOException {
        NcZarrOptions options = NcZarrOptions.shared();
        return route(
                uri, fragment, config, options::httpClient, options.s3Clients(), () -> userCredentials(options, uri));
    }

    /**
     * The source for a URL: the one place that maps a URL to a backend. {@code s3://} URLs, and
     * http/https URLs whose fragment asks for S3 ({@code mode=...,s3}, {@code aws.profile},
     * {@code awsprofile}), use S3 requests with profiles, regions and signing; other http/https
     * URLs use plain HTTP range requests (public objects, presigned URLs, THREDDS fileServer).
     *
     * @param uri the object's URL without fragment
     * @param fragment the fragment keys (lower case), e.g. {@code mode}, {@code aws.profile}
     * @param http the client of plain HTTP sources (its own connect timeout applies); not closed here
     * @param s3 the pool S3 sources lease their client from, given back when the source is closed
     * @throws io.nczarr.error.UnsupportedFeatureException for a scheme without a backend
     * @throws StoreException for a URL the backend cannot use (credentials in an http URL, an S3 URL
     *     without key...)
     */
    public static RangeSource openSource(
            URI uri, Map<String, String> fragment, ByteRangeConfig config, HttpClient http, S3ClientPool s3)
            throws IOException {
        Objects.requireNonNull(http, "http");
        return route(uri, fragment, config, () -> http, s3, () -> userCredentials(NcZarrOptions.shared(), uri));
    }

    /** The user's HTTP credentials (.netrc, bearer tokens, Earthdata cookies) for the URL the user gave. */
    private static RequestAuth userCredentials(NcZarrOptions options, URI uri) {
        return options.userHttpAuth(uri);
    }

    private static RangeSource route(
            URI uri,
            Map<String, String> fragment,
            ByteRangeConfig config,
            Supplier<HttpClient> http,
            S3ClientPool s3,
            Supplier<RequestAuth> auth)
            throws IOException {
        Objects.requireNonNull(s3, "s3");
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean s3Api = wantsS3(fragment);
        switch (ObjectSources.kindOf(uri, u -> s3Api)) {
            case S3:
                return S3RangeSource.open(uri, fragment, s3);
            case HTTP:
                try {
                    return HttpRangeSource.open(uri, config, http.get(), auth.get());
                } catch (IllegalArgumentException e) {
                    throw SourceFailures.unusableUrl(uri, e);
                }
            default:
                // local files are opened by netCDF-Java itself, not as byte ranges
                throw new UnsupportedFeatureException(
                        HttpRangeSource.redact(uri),
                        null,
                        null,
                        "scheme " + scheme,
                        "mode=bytes reads http, https and s3 URLs, not '" + scheme + "'",
                        null);
        }
    }

    private static boolean wantsS3(Map<String, String> fragment) {
        if (fragment.containsKey("aws.profile") || fragment.containsKey("awsprofile")) {
            return true;
        }
        String mode = fragment.getOrDefault("mode", "");
        for (String f : mode.split(",")) {
            if (f.trim().equalsIgnoreCase("s3")) {
                return true;
            }
        }
        return false;
    }

    /** The byte-range file for a URL, configured from the {@code nczarr.bytes.*} system properties. */
    public static BlockCacheRandomAccessFile openRaf(URI uri) throws IOException {
        return openRaf(uri, systemConfig());
    }

    /** The byte-range file for a URL; the first block is fetched, so a 404 or 403 fails here. */
    public static BlockCacheRandomAccessFile openRaf(URI uri, ByteRangeConfig config) throws IOException {
        return BlockCacheRandomAccessFile.open(openSource(uri, config), config);
    }

    /**
     * Opens the netCDF file at a URL.
     *
     * @param uri the object's URL without fragment
     * @param location what the returned {@code NetcdfFile} reports as its location (e.g. the URL the
     *     user gave, fragment included)
     */
    public static NetcdfFile open(URI uri, String location) throws IOException {
        return open(uri, location, systemConfig());
    }

    /**
     * Opens the netCDF file at a URL whose fragment keys choose the backend (see {@link #openSource}),
     * configured from the {@code nczarr.bytes.*} system properties.
     */
    public static NetcdfFile open(URI uri, Map<String, String> fragment, String location) throws IOException {
        ByteRangeConfig config = systemConfig();
        return open(BlockCacheRandomAccessFile.open(openSource(uri, fragment, config), config), location);
    }

    /**
     * Opens the netCDF file at a URL with the caller's configuration and clients (see
     * {@link #openSource(URI, Map, ByteRangeConfig, HttpClient, S3ClientPool)}).
     *
     * @param location what the returned {@code NetcdfFile} reports as its location
     */
    public static NetcdfFile open(
            URI uri,
            Map<String, String> fragment,
            String location,
            ByteRangeConfig config,
            HttpClient http,
            S3ClientPool s3)
            throws IOException {
        return open(BlockCacheRandomAccessFile.open(openSource(uri, fragment, config, http, s3), config), location);
    }

    public static NetcdfFile open(URI uri, String location, ByteRangeConfig config) throws IOException {
        return open(openRaf(uri, config), location);
    }

    /** Opens a netCDF file on an already opened byte-range file; closes it if the open fails. */
    public static NetcdfFile open(BlockCacheRandomAccessFile raf, String location) throws IOException {
        try {
            return NetcdfFile.open(raf, location, null, null);
        } catch (IOException | RuntimeException e) {
            try {
                raf.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof IOException && String.valueOf(e.getMessage()).contains("not a valid CDM file")) {
                throw new UnsupportedFeatureException(
                        Redaction.redact(location),
                        null,
                        null,
                        "file format",
                        "not a netCDF-3 or"
                                + " netCDF-4/HDF5 file that netCDF-Java can read (mode=bytes opens single netCDF/HDF5 files,"
                                + " not Zarr stores)",
                        withRedactedLocation((IOException) e, location));
            }
            throw e;
        }
    }

    /**
     * cdm's failure with the location it quotes ("Cant read LOCATION: not a valid CDM file.") redacted, so
     * that it can be a cause without carrying the URL's secrets; the same failure when it quotes none.
     */
    private static IOException withRedactedLocation(IOException e, String location) {
        String m = e.getMessage();
        String redacted = Redaction.redact(location);
        if (m == null || redacted.equals(location) || !m.contains(location)) {
            return e;
        }
        IOException copy = new IOException(m.replace(location, redacted), e.getCause());
        copy.setStackTrace(e.getStackTrace());
        for (Throwable s : e.getSuppressed()) {
            copy.addSuppressed(s);
        }
        return copy;
    }

    /** The {@code nczarr.bytes.*} system properties; a bad value is an {@link NcZarrException} naming it. */
    public static ByteRangeConfig systemConfig() throws IOException {
        return config(System::getProperty);
    }

    /**
     * The {@code nczarr.bytes.*} settings {@code property} returns (e.g. {@code
     * options.environment()::property}); a bad value is an {@link NcZarrException} naming it.
     */
    public static ByteRangeConfig config(UnaryOperator<String> property) throws IOException {
        try {
            return ByteRangeConfig.from(property);
        } catch (IllegalArgumentException e) {
            throw new NcZarrException("bad mode=bytes configuration: " + e.getMessage(), e);
        }
    }
}
