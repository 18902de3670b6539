package io.nczarr.s3;

import java.io.Closeable;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Shares S3 clients (and so their connection pools) between open datasets: one client per
 * {@link S3ClientSpec} (endpoint, region, credentials, tuning), reference counted, closed when
 * the last {@link Lease} on it is closed. Thread-safe.
 *
 * <p>The SDK's client is built on first use only: where {@link DirectGets} can reach the endpoint, GET, HEAD
 * and LIST never need it, and building it is most of a fresh process's first S3 open (0.7-0.8 s).
 */
public final class S3ClientPool implements Closeable {

    private final Function<S3ClientSpec, S3Client> factory;
    private final Map<S3ClientSpec, Entry> clients = new HashMap<>();

    private final class Entry {
        final S3ClientSpec spec;
        final DirectGets direct;
        int users;
        private S3Client client;
        private boolean closed;

        Entry(S3ClientSpec spec, DirectGets direct) {
            this.spec = spec;
            this.direct = direct;
        }

        synchronized S3Client client() {
            if (closed) {
                throw SdkClientException.create("the S3 client pool was closed");
            }
            if (client == null) {
                client = factory.apply(spec);
            }
            return client;
        }

        synchronized boolean built() {
            return client != null;
        }

        synchronized void close() {
            closed = true;
            if (client != null) {
                client.close();
            }
            if (direct != null) {
                direct.close();
            }
        }
    }

    public S3ClientPool(Function<S3ClientSpec, S3Client> factory) {
        this.factory = factory;
    }

    /** A pool whose clients {@link S3ClientFactory} makes; no SDK class is loaded before the first client. */
    public static S3ClientPool standard() {
        return new S3ClientPool(new StandardClients());
    }

    /**
     * A class, not a lambda or method reference: linking one resolves its method type, which loads the SDK's
     * {@code S3Client} interface (157 KB, ~4 ms at a process's first open, local ones included).
     */
    private static final class StandardClients implements Function<S3ClientSpec, S3Client> {
        @Override
        public S3Client apply(S3ClientSpec spec) {
            return S3ClientFactory.create(spec);
        }
    }

    /** A client for the spec, created on first use; close the lease when done. */
    public synchronized Lease acquire(S3ClientSpec spec) {
        Entry e = clients.get(spec);
        if (e == null) {
            e = new Entry(spec, DirectGets.create(spec));
            clients.put(spec, e);
        }
        e.users++;
        return new Lease(e);
    }

    private synchronized void release(S3ClientSpec spec) {
        Entry e = clients.get(spec);
        if (e != null && --e.users == 0) {
            clients.remove(spec);
            e.close();
        }
    }

    /**
     * Closes every client now, whatever leases are still open (their later requests fail); for the
     * owner of the pool when it shuts down.
     */
    @Override
    public synchronized void close() {
        for (Entry e : clients.values()) {
            e.close();
        }
        clients.clear();
    }

    /** How many clients are open now. */
    public synchronized int openClients() {
        return clients.size();
    }

    /** Whether the SDK's client for a spec has been built (it is built on first use). */
    public synchronized boolean sdkClientBuilt(S3ClientSpec spec) {
        Entry e = clients.get(spec);
        return e != null && e.built();
    }

    /** How many leases are open on the client for a spec. */
    public synchronized int users(S3ClientSpec spec) {
        Entry e = clients.get(spec);
        return e == null ? 0 : e.users;
    }

    /** One user's hold on a shared client. Closing it twice is harmless. */
    public final class Lease implements Closeable {
        private final Entry entry;
        private boolean closed;

        private Lease(Entry entry) {
            this.entry = entry;
        }

        /** The SDK's client, built on the first call for its spec. */
        public S3Client client() {
            return entry.client();
        }

        /**
         * GET, HEAD and LIST past the SDK's pipeline on the same kind of connection, or {@code null} where only
         * the SDK can go.
         */
        DirectGets direct() {
            return entry.direct;
        }

        public S3ClientSpec spec() {
            return entry.spec;
        }

        @Override
        public void close() {
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
            }
            release(entry.spec);
        }
    }
}
