package io.nczarr.cdm;

import io.nczarr.open.NcZarrOptions;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFileSubclass;

/**
 * The hook of {@link NcZarrFiles}: a file with CF-1.13 or CFA aggregation variables is presented
 * through {@link AggregationIosp}; every other file is returned as opened.
 */
final class Aggregations {
    private Aggregations() {}

    private static final byte[] HDF5 = {(byte) 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

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

    /**
     * A local path without a storage mode that is a regular file starting with the netCDF-3 ({@code CDF\1},
     * {@code \2}, {@code \5}) or HDF5 signature.
     */
    static boolean isLocalNetcdf(DatasetUrl url) {
        if (!"file".equals(url.scheme()) || url.declaredStoreKind().isPresent() || url.localPath() == null) {
            return false;
        }
        Path p = url.localPath();
        if (!Files.isRegularFile(p)) {
            return false;
        }
        byte[] head = new byte[8];
        int n;
        try (InputStream in = Files.newInputStream(p)) {
            n = in.readNBytes(head, 0, 8);
        } catch (IOException e) {
            return false;
        }
        if (n >= 4
                && head[0] == 'C'
                && head[1] == 'D'
                && head[2] == 'F'
                && (head[3] == 1 || head[3] == 2 || head[3] == 5)) {
            return true;
        }
        return n == 8 && Arrays.equals(head, HDF5);
    }
}
