package example;

import io.nczarr.cdm.NcZarrIosp;
import java.io.IOException;
import java.io.PrintStream;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDataset;

/**
 * The smallest netCDF-Java 4.5.5 application that reads Zarr: register the IOSP (one line), then open a
 * directory store's {@code .zgroup} with plain {@code NetcdfDataset.openDataset}, as for any netCDF file.
 *
 * <pre>java -cp ... example.OpenWithNetcdfJava /data/x.zarr/.zgroup</pre>
 */
public final class OpenWithNetcdfJava {
    private OpenWithNetcdfJava() {}

    public static void main(String[] args) throws Exception {
        print(args[0], System.out);
    }

    /** Prints each variable with its shape and first value (CF-enhanced). */
    public static void print(String location, PrintStream out)
            throws IOException, IllegalAccessException, InstantiationException {
        if (!NetcdfFile.iospRegistered(NcZarrIosp.class)) {
            NetcdfFile.registerIOProvider(NcZarrIosp.class);
        }
        try (NetcdfDataset ds = NetcdfDataset.openDataset(location)) {
            for (Variable v : ds.getVariables()) {
                Array a = v.read();
                out.println(v.getFullName() + " " + v.getDataType() + java.util.Arrays.toString(v.getShape())
                        + (a.getSize() > 0 ? " first=" + a.getObject(0) : ""));
            }
        }
    }
}
