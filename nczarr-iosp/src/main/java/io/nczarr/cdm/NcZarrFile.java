package io.nczarr.cdm;

import java.io.IOException;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFileSubclass;
import ucar.nc2.iosp.IOServiceProvider;

/** The NetcdfFile of a dataset opened by {@link NcZarrFiles}: its groups are {@link CdmGroup}s. */
final class NcZarrFile extends NetcdfFileSubclass {

    NcZarrFile(IOServiceProvider iosp, String location) throws IOException {
        super(iosp, null, location, null);
    }

    /** Called by cdm's constructor before the IOSP fills the file. */
    @Override
    protected Group makeRootGroup() {
        Group root = new CdmGroup(this, null, "");
        root.setParentGroup(null);
        return root;
    }
}
