package io.nczarr.cdm;

import java.io.IOException;
import ucar.nc2.dataset.NetcdfDataset;
import ucar.nc2.dataset.conv.CF1Convention;
import ucar.nc2.util.CancelTask;

/** cdm's CF-1.x convention, plus {@link DefaultFills} for our datasets (it is plain CF for any other file). */
public class DefaultFillCFConvention extends CF1Convention {
    @Override
    public void augmentDataset(NetcdfDataset ds, CancelTask cancelTask) throws IOException {
        DefaultFills.addTo(ds);
        super.augmentDataset(ds, cancelTask);
    }
}
