package io.nczarr.cdm;

import io.nczarr.open.NcZarrOptions;
import java.io.IOException;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFileSubclass;

/**
 * The hook of {@link NcZarrFiles}: a file with CF-1.13 or CFA aggregation variables is presented
 * through {@link AggregationIosp}; every other file is returned as opened.
 */
final class Aggregations {
    private Aggregations() {}

    /** {@code nc} itself, or {@code nc} presented as an aggregation (closed if that fails). */
    static NetcdfFile wrap(NetcdfFile nc, String location, NcZarrOptions options) throws IOException {
        try {
            if (options.aggregation().showBookkeeping() || !AggregationIosp.hasAggregation(nc)) {
                return nc;
            }
            return new NetcdfFileSubclass(new AggregationIosp(nc, location, options), null, location, null);
        } catch (IOException e) {
            nc.close();
            throw e;
        } catch (RuntimeException e) {
            nc.close();
            throw Guard.unexpected(location, null, e);
        }
    }
}
