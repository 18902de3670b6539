package io.nczarr.open;

import io.nczarr.aggregation.AggregationSettings;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.codec.NativeCodecs;
import io.nczarr.error.NcZarrException;
import io.nczarr.http.auth.RequestAuth;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.source.TrustSettings;
import io.nczarr.store.HttpLogins;
import io.nczarr.store.MemoryLimits;
import io.nczarr.store.ReadPool;
import io.nczarr.store.StoreResources;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Everything a dataset open needs from outside: the codec registry, the read threads, the S3 client
 * pool, the HTTP client, limits and the environment (system properties, environment variables) the
 * settings are read from. Immutable; made once ({@link #builder()}, or {@link #shared()} for the process
 * default) and passed down, so that a host can size, share and stop what the library uses. This class and
 * the per-URL settings it resolves are the one place where system properties are read.
 *
 * <p>Resources the builder creates (because none was given) are owned by the options and stopped by
 * {@link #close()}; resources given to the builder stay the caller's.
 *
 * <table>
 *   <caption>system properties (a URL fragment key of the same name overrides the per-dataset ones)</caption>
 *   <tr><th>property</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code nczarr.decodeThreads}</td><td>cores</td><td>threads decoding chunks of local datasets</td></tr>
 *   <tr><td>{@code nczarr.requestThreads}</td><td>64</td><td>most requests in flight over all remote reads
 *       (each read is further limited by {@code nczarr.s3.concurrency})</td></tr>
 *   <tr><td>{@code nczarr.limits.maxObjectBytes} (old name {@code nczarr.maxObjectBytes})</td>
 *       <td>min(1 GiB, heap/4)</td><td>largest object read whole</td></tr>
 *   <tr><td>{@code nczarr.limits.maxChunkBytes}</td><td>min(1 GiB, heap/8)</td><td>largest decoded chunk</td></tr>
 *   <tr><td>{@code nczarr.limits.maxMetadataBytes}</td><td>min(64 MiB, heap/16)</td>
 *       <td>largest metadata object</td></tr>
 *   <tr><td>{@code nczarr.limits.maxReadBytes}</td><td>heap/2</td><td>largest result of one read</td></tr>
 *   <tr><td>{@code nczarr.store.allowSymlinksOut}</td><td>false</td><td>whether directory stores follow
 *       symbolic links that lead out of the dataset directory ({@code true} or {@code false})</td></tr>
 *   <tr><td>{@code nczarr.trust.allow}, {@code nczarr.trust.localRoots}, {@code nczarr.trust.credentials}</td>
 *       <td>none</td><td>what documents may reach and where credentials go ({@link TrustSettings})</td></tr>
 *   <tr><td>{@code nczarr.codec.native}</td><td>true</td><td>whether native decoders found on the system
 *       (libdeflate for zlib, c-blosc for blosc) replace the Java ones; {@code false}: Java only</td></tr>
 * </table>
 *
 * <p>The limits are byte counts, optionally with a binary suffix ({@code 512m}, {@code 2g}); {@link
 * MemoryLimits} says what exactly each bounds. "heap" is the JVM's maximum heap ({@code -Xmx}).
 */
public final class NcZarrOptions implements AutoCloseable {
    public static final String DECODE_THREADS = "nczarr.decodeThreads";
    public static final String REQUEST_THREADS = "nczarr.requestThreads";
    public static final String MAX_OBJECT_BYTES = MemoryLimits.MAX_OBJECT_BYTES;
    /** The old name of {@link #MAX_OBJECT_BYTES}, still read when the new one is not set. */
    public static final String OLD_MAX_OBJECT_BYTES = "nczarr.maxObjectBytes";

    public static final String MAX_CHUNK_BYTES = MemoryLimits.MAX_CHUNK_BYTES;
    public static final String MAX_METADATA_BYTES = MemoryLimits.MAX_METADATA_BYTES;
    public static final String MAX_READ_BYTES = MemoryLimits.MAX_READ_BYTES;
    public static final String ALLOW_SYMLINKS_OUT = "nczarr.store.allowSymlinksOut";
    public static final String NATIVE_CODECS = "nczarr.codec.native";

    public static final int DEFAULT_REQUEST_THREADS = 64;
    /** More threads than this is a configuration mistake, not a wish. */
    static final int MAX_THREADS = 1024;

    private static NcZarrOptions shared;

    private final CodecRegistry codecs;
    private final ReadPool readPool;
    private final S3ClientPool s3Clients;
    private final AwsEnvironment environment;
    private final MemoryLimits limits;
    private final boolean allowSymlinksOut;
    private final HttpClient givenHttpClient;
    private final AggregationSettings aggregation;
    private final TrustSettings trust;
    /** The user's HTTP credentials and the cookies kept with them, for every read made with these options. */
    private final HttpLogins httpLogins;

    private HttpClient ownHttpClient;
    private final List<AutoCloseable> owned;
    private boolean closed;

    private NcZarrOptions(Builder b, List<AutoCloseable> owned) {
        this.codecs = b.codecs;
        this.readPool = b.readPool;
        this.s3Clients = b.s3Clients;
        this.environment = b.environment;
        this.limits = b.limits;
        this.allowSymlinksOut = b.allowSymlinksOut;
        this.givenHttpClient = b.httpClient;
        this.aggregation = b.aggregation;
        this.trust = b.trust;
        this.httpLogins = HttpLogins.of(b.environment);
        this.owned = owned;
    }

    /**
     * The process default, made from system properties on first use. Bounded (a fixed number of
     * threads, idle threads end); {@link #closeShared()} stops it and the next call makes a new one.
     */
    public static synchronized NcZarrOptions shared() {
        if (shared == null || shared.isClosed()) {
            try {
                shared = builder().build();
            } catch (NcZarrException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }
        return shared;
    }

    /** Stops the process default's threads and clients (e.g. when a web application is undeployed). */
    public static synchronized void closeShared() {
        if (shared != null) {
            shared.close();
            shared = null;
        }
    }

    /** A builder with every setting taken from the system properties. */
    public static Builder builder() {
        return new Builder(AwsEnvironment.system());
    }

    /** A builder whose settings come from {@code environment} (fixed values in tests). */
    public static Builder builder(AwsEnvironment environment) {
        return new Builder(environment);
    }

    public CodecRegistry codecs() {
        return codecs;
    }

    /** How aggregation files (CF-1.13, CFA) are read; their fragments are read on {@link ReadPool#fragmentPool()}. */
    public AggregationSettings aggregation() {
        return aggregation;
    }

    /**
     * What documents (reference files, aggregations) may reach beyond the default trust rules ({@code
     * nczarr.trust.*}, user guide "Trust model").
     */
    public TrustSettings trust() {
        return trust;
    }

    public ReadPool readPool() {
        return readPool;
    }

    public S3ClientPool s3Clients() {
        return s3Clients;
    }

    /** Where system properties and environment variables are read. */
    public AwsEnvironment environment() {
        return environment;
    }

    /** The memory budget of reading: what one object, chunk, metadata object and read may take. */
    public MemoryLimits limits() {
        return limits;
    }

    /** Whether directory stores may follow symbolic links out of the dataset ({@value #ALLOW_SYMLINKS_OUT}). */
    public boolean allowSymlinksOut() {
        return allowSymlinksOut;
    }

    /** The largest object read whole ({@code limits().maxObjectBytes()}). */
    public long maxObjectBytes() {
        return limits.maxObjectBytes();
    }

    /** The user's HTTP credentials for a URL the user gave (one object read by byte ranges). */
    public RequestAuth userHttpAuth(URI userUrl) {
        return storeResources().userHttpAuth(userUrl);
    }

    /** What stores are opened with (a class, not {@code this::httpClient}: that loads the JDK's HTTP client). */
    public StoreResources storeResources() {
        Supplier<HttpClient> http = new Supplier<>() {
            @Override
            public HttpClient get() {
                return httpClient();
            }
        };
        return new StoreResources(s3Clients, environment, limits, allowSymlinksOut, http, trust, null, httpLogins);
    }

    /** The HTTP client for byte-range and HTTP reads; made on first use unless one was given. */
    public synchronized HttpClient httpClient() {
        if (givenHttpClient != null) {
            return givenHttpClient;
        }
        if (ownHttpClient == null) {
            if (closed) {
                throw new IllegalStateException("these options are closed");
            }
            ownHttpClient = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10))
                    .followRedirects(HttpClient.Redirect.NORMAL)
                    .build();
        }
        return ownHttpClient;
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    /** Stops what these options made themselves (threads, clients); what was given stays open. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            ownHttpClient = null; // the JDK client has no close before Java 21: dropping it ends its thread
        }
        for (AutoCloseable c : owned) {
            try {
                c.close();
            } catch (Exception e) {
                // closing is best effort; nothing useful to do with a failure here
            }
        }
    }

    /** Builds {@link NcZarrOptions}; anything not set comes from the system properties. */
    public static final class Builder {
        private final AwsEnvironment environment;
        private CodecRegistry codecs;
        private ReadPool readPool;
        private Integer decodeThreads;
        private Integer requestThreads;
        private S3ClientPool s3Clients;
        private HttpClient httpClient;
        private long maxObjectBytes = -1;
        private MemoryLimits limits;
        private Boolean allowSymlinksOutGiven;
        private boolean allowSymlinksOut;
        private AggregationSettings aggregation;
        private TrustSettings trust;
        private final OptionValues values;

        private Builder(AwsEnvironment environment) {
            this.environment = environment;
            this.values = new OptionValues(environment);
        }

        public Builder codecs(CodecRegistry codecs) {
            this.codecs = codecs;
            return this;
        }

        /** Threads given by the caller, who also stops them; overrides the thread counts. */
        public Builder readPool(ReadPool readPool) {
            this.readPool = readPool;
            return this;
        }

        public Builder decodeThreads(int n) {
            this.decodeThreads = n;
            return this;
        }

        public Builder requestThreads(int n) {
            this.requestThreads = n;
            return this;
        }

        /** S3 clients given by the caller, who also closes them. */
        public Builder s3Clients(S3ClientPool pool) {
            this.s3Clients = pool;
            return this;
        }

        /** The HTTP client given by the caller. */
        public Builder httpClient(HttpClient client) {
            this.httpClient = client;
            return this;
        }

        /** The object limit; the other limits still come from the properties (or {@link #limits}). */
        public Builder maxObjectBytes(long n) {
            this.maxObjectBytes = n;
            return this;
        }

        /** Whether directory stores may follow symbolic links out of the dataset (default: no). */
        public Builder allowSymlinksOut(boolean allow) {
            this.allowSymlinksOutGiven = allow;
            return this;
        }

        /** Aggregation settings; when not given they come from the {@code nczarr.aggregation.*} properties. */
        public Builder aggregation(AggregationSettings settings) {
            this.aggregation = settings;
            return this;
        }

        /** Trust settings; when not given they come from the {@code nczarr.trust.*} properties. */
        public Builder trust(TrustSettings settings) {
            this.trust = settings;
            return this;
        }

        /** All memory limits at once; the limit properties are then not read. */
        public Builder limits(MemoryLimits limits) {
            this.limits = limits;
            return this;
        }

        /** @throws NcZarrException when a setting is out of range, naming the property */
        public NcZarrOptions build() throws NcZarrException {
            List<AutoCloseable> owned = new ArrayList<>();
            if (codecs == null) {
                codecs = CodecRegistry.standard(
                        values.flag(NATIVE_CODECS, true) ? NativeCodecs.load() : NativeCodecs.none());
            }
            limits = resolveLimits();
            allowSymlinksOut =
                    allowSymlinksOutGiven != null ? allowSymlinksOutGiven : values.flag(ALLOW_SYMLINKS_OUT, false);
            if (readPool == null) {
                int decode = decodeThreads != null
                        ? OptionValues.check(DECODE_THREADS, decodeThreads)
                        : (int) values.number(
                                DECODE_THREADS, Runtime.getRuntime().availableProcessors(), 1, MAX_THREADS);
                int requests = requestThreads != null
                        ? OptionValues.check(REQUEST_THREADS, requestThreads)
                        : (int) values.number(REQUEST_THREADS, DEFAULT_REQUEST_THREADS, 1, MAX_THREADS);
                readPool = new ReadPool(decode, requests);
                owned.add(readPool);
            }
            if (aggregation == null) {
                aggregation = new AggregationSettings(
                        values.flag(AggregationSettings.ALLOW_LOCAL_FRAGMENTS, false),
                        (int) values.number(
                                AggregationSettings.MAX_OPEN_FRAGMENTS,
                                AggregationSettings.DEFAULT_MAX_OPEN_FRAGMENTS,
                                1,
                                100_000),
                        values.flag(AggregationSettings.RAW, false));
            }
            if (trust == null) {
                try {
                    trust = TrustSettings.from(environment::property, aggregation.allowLocalFragments());
                } catch (IllegalArgumentException e) {
                    throw new NcZarrException("system property " + e.getMessage());
                }
            }
            if (s3Clients == null) {
                s3Clients = S3ClientPool.standard(); // no SDK class loaded before the first client
                owned.add(s3Clients);
            }
            return new NcZarrOptions(this, List.copyOf(owned));
        }

        /**
         * The given limits, else each from its property or the default for this heap; {@link
         * #maxObjectBytes(long)} overrides the object limit either way.
         */
        private MemoryLimits resolveLimits() throws NcZarrException {
            MemoryLimits l = limits;
            if (l == null) {
                MemoryLimits d = MemoryLimits.defaults();
                long array = MemoryLimits.MAX_ARRAY_BYTES;
                String objectName = environment.property(MAX_OBJECT_BYTES) == null
                                && environment.property(OLD_MAX_OBJECT_BYTES) != null
                        ? OLD_MAX_OBJECT_BYTES
                        : MAX_OBJECT_BYTES;
                l = new MemoryLimits(
                        values.bytes(objectName, d.maxObjectBytes(), array),
                        values.bytes(MAX_CHUNK_BYTES, d.maxChunkBytes(), array),
                        values.bytes(MAX_METADATA_BYTES, d.maxMetadataBytes(), array),
                        values.bytes(MAX_READ_BYTES, d.maxReadBytes(), Long.MAX_VALUE));
            }
            if (maxObjectBytes >= 0) {
                if (maxObjectBytes < 1 || maxObjectBytes > MemoryLimits.MAX_ARRAY_BYTES) {
                    throw new NcZarrException(MAX_OBJECT_BYTES + " must be 1.." + MemoryLimits.MAX_ARRAY_BYTES
                            + ", not " + maxObjectBytes);
                }
                l = l.withMaxObjectBytes(maxObjectBytes);
            }
            return l;
        }
    }
}
