package io.nczarr.store;

import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3ClientPool;
import java.util.Objects;

/**
 * What opening a store needs from outside: the pool S3 stores lease their client from, the environment
 * (system properties, environment variables) AWS settings are read from, the memory limits (a store
 * bounds every whole-object read by {@link MemoryLimits#object()}), and whether directory stores may
 * follow symbolic links out of the dataset (off unless the host says so: {@code
 * nczarr.store.allowSymlinksOut}). The caller owns them; a store only leases.
 */
public record StoreResources(
        S3ClientPool s3Clients, AwsEnvironment environment, MemoryLimits limits, boolean allowSymlinksOut) {
    public StoreResources {
        Objects.requireNonNull(s3Clients, "s3Clients");
        Objects.requireNonNull(environment, "environment");
        Objects.requireNonNull(limits, "limits");
    }

    /** Resources whose directory stores stay inside their root (links out refused). */
    public StoreResources(S3ClientPool s3Clients, AwsEnvironment environment, MemoryLimits limits) {
        this(s3Clients, environment, limits, false);
    }

    /** The largest object read whole. */
    public long maxObjectBytes() {
        return limits.maxObjectBytes();
    }
}
