package io.nczarr.aggregation;

import io.nczarr.read.VariableReader;
import java.io.Closeable;
import java.io.IOException;

/** One open fragment file, as a host opened it (a Zarr store through the core, a netCDF file through netCDF-Java). */
public interface FragmentFile extends Closeable {
    /**
     * The variable a fragment identifier names ({@code "tas"}, {@code "/g/tas"}), or {@code null} when the file
     * has none. Reads of the result may come from several threads: the file serialises them if it must.
     */
    VariableReader variable(String identifier) throws IOException;
}
