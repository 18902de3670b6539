package io.nczarr.aggregation;

/**
 * One partition of an S3netCDF4 CFA-0.4/0.5 partition matrix (technical overview, Figure 5): its
 * {@code index} in the matrix, its {@code location} in the master array ({@code [start, end]} per
 * dimension, end inclusive as in Figure 2; an exclusive end is recognised from {@code shape}), and its
 * sub-array ({@code file}, {@code ncvar}, {@code shape}, {@code format}).
 */
public record CfaPartition(long[] index, long[][] location, String file, String ncvar, long[] shape, String format) {}
