/**
 * Aggregations without netCDF-Java: CF-1.13 aggregation variables (CF section 2.8, Appendix L) and
 * S3netCDF4's CFA-0.4 / CFA-0.5 partition matrices, reduced to one model, an {@link
 * io.nczarr.aggregation.Aggregation} (aggregated shape, fragment grid, one {@link
 * io.nczarr.aggregation.Fragment} per grid cell); {@link io.nczarr.aggregation.FragmentGrid#plan} maps a
 * requested section to the fragments it touches; {@link io.nczarr.aggregation.FragmentUris} resolves
 * fragment URIs against the aggregation file. {@link io.nczarr.aggregation.AggregationParser} reads the
 * bookkeeping of a host's {@link io.nczarr.aggregation.AggregationDocument}; {@link
 * io.nczarr.aggregation.AggregatedVariable} reads sections through the typed API, opening fragments (trust-checked
 * by {@link io.nczarr.aggregation.FragmentSources}) with the host's {@link io.nczarr.aggregation.FragmentOpener} and
 * bringing them to canonical form ({@link io.nczarr.aggregation.CanonicalValues}). The netCDF-Java binding
 * (io.nczarr.cdm) supplies netCDF files as documents and fragments; the core reads Zarr ones.
 */
package io.nczarr.aggregation;
