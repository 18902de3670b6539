package io.nczarr.cli;

import java.io.IOException;
import ucar.ma2.Array;
import ucar.nc2.Variable;

/** What quicklook asks of a plot's axes: which way a dimension's coordinate runs. */
final class QuicklookAxes {
    private QuicklookAxes() {}

    /** Whether the dimension's 1-D coordinate increases (then its first row goes at the bottom). */
    static boolean increasing(Variable v, int d) {
        Variable coord =
                v.getParentGroup().findVariableOrInParent(v.getDimension(d).getShortName());
        if (coord == null
                || coord.getRank() != 1
                || coord.getSize() < 2
                || !coord.getDataType().isNumeric()) {
            return false;
        }
        try {
            Array c = coord.read();
            return c.getDouble(c.getSize() > 1 ? 1 : 0) > c.getDouble(0);
        } catch (IOException e) {
            return false;
        }
    }
}
