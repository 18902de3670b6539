package io.nczarr.raf;

import io.nczarr.source.ObjectSource;

/**
 * One remote object (an HTTP resource, an S3 object...) read by byte ranges: the core's one door for bytes,
 * {@link ObjectSource}, as this module names it. {@link BlockCacheRandomAccessFile} does the caching and the
 * netCDF-Java side. {@code RangeSourceContractTest} holds every implementation to this contract.
 *
 * <p>Transport failures are {@link io.nczarr.error.StoreException}s whose dataset is
 * {@link #location()}; a missing object is a {@link java.io.FileNotFoundException}.
 *
 * <p>Implementations must be thread-safe: several threads may call {@link #read} at once.
 */
public interface RangeSource extends ObjectSource {}
