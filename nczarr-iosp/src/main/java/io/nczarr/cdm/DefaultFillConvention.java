package io.nczarr.cdm;

import ucar.nc2.NetcdfFile;
import ucar.nc2.dataset.NetcdfDataset;
import ucar.nc2.dataset.conv.DefaultConvention;
import ucar.nc2.util.CancelTask;

/**
 * cdm's default convention plus {@link DefaultFills}, for our datasets that no convention claims (no or an unknown
 * {@code Conventions} attribute). A ServiceLoader entry: cdm asks these after its own conventions.
 */
public class DefaultFillConvention extends DefaultConvention {
    /** Called by cdm's {@code CoordSysBuilder.factory} through reflection. */
    public static boolean isMine(NetcdfFile file) {
        return DefaultFills.isOurs(file);
    }

    @Override
    public void augmentDataset(NetcdfDataset ds, CancelTask cancelTask) {
        DefaultFills.addTo(ds);
        super.augmentDataset(ds, cancelTask);
    }
}
