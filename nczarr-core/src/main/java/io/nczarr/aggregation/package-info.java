/**
 * Aggregations without netCDF-Java: CF-1.13 aggregation variables (CF section 2.8, Appendix L) and
 * S3netCDF4's CFA-0.4 / CFA-0.5 partition matrices, reduced to one model, an {@link
 * io.nczarr.aggregation.Aggregation} (aggregated shape, fragment grid, one {@link
 * io.nczarr.aggregation.Fragment} per grid cell); {@link io.nczarr.aggregation.FragmentGrid#plan} maps a
 * requested section to the fragments it touches; {@link io.nczarr.aggregation.FragmentUris} resolves
 * fragment URIs against the aggregation file. The binding (io.nczarr.cdm) reads the attributes and
 * bookkeeping variables and opens the fragments.
 */
package io.nczarr.aggregation;
