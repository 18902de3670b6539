package io.nczarr.cdm;

import ucar.nc2.Dimension;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * A group of a file this plugin built. cdm 4.5.5's {@code addVariable}/{@code addDimension} look for a
 * duplicate name by walking the group's list, which makes an open of n variables cost n² string
 * comparisons; the builder has already refused clashes with a set, so these adds skip the walk.
 */
final class CdmGroup extends Group {

    CdmGroup(NetcdfFile file, Group parent, String name) {
        super(file, parent, name);
    }

    /** A group's variables: {@code g}'s own list walk when it is not one of these. */
    static void addVariable(Group g, Variable v) {
        if (g instanceof CdmGroup c && !c.getImmutable()) {
            c.variables.add(v);
            v.setParentGroup(c);
        } else {
            g.addVariable(v);
        }
    }

    /** A group's shared dimensions, as {@link #addVariable}. */
    static void addDimension(Group g, Dimension d) {
        if (g instanceof CdmGroup c && !c.getImmutable()) {
            c.dimensions.add(d);
            d.setGroup(c);
        } else {
            g.addDimension(d);
        }
    }
}
