/**
 * The host-neutral typed read API: a variable and a section in, a typed primitive array with its shape out,
 * with the variable's CF value metadata ({@code _FillValue}, {@code missing_value}, {@code scale_factor},
 * {@code add_offset}, valid range) and its chunk grid alongside. What every binding (netCDF-Java, Spark) reads
 * through; knows no host library.
 *
 * <p>{@link io.nczarr.read.VariableReader} is the entry point ({@code OpenDataset.reader(path)}); results are
 * {@link io.nczarr.read.TypedArray}s; {@link io.nczarr.read.ChunkGrid} plans chunk-aligned reads.
 */
package io.nczarr.read;
