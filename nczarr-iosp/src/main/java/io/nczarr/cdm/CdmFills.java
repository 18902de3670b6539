package io.nczarr.cdm;

import io.nczarr.model.Fills;
import io.nczarr.model.NcType;
import ucar.nc2.Attribute;
import ucar.nc2.Variable;

/** The {@link Fills} of a netCDF-Java variable: its {@code _FillValue}, else the default fill of its type. */
public final class CdmFills {
    private CdmFills() {}

    /** The fill test of a numeric variable; one that never matches for other types. */
    public static Fills of(Variable v) {
        NcType t = type(v);
        if (t == null) {
            return Fills.of(NcType.STRING, null);
        }
        Attribute a = v.findAttribute("_FillValue");
        if (a == null && v instanceof ucar.nc2.dataset.VariableDS ds && ds.getOriginalVariable() != null) {
            a = ds.getOriginalVariable().findAttribute("_FillValue");
        }
        Number n = a == null || a.isString() || a.getLength() != 1 ? null : a.getNumericValue();
        return Fills.of(t, n);
    }

    static NcType type(Variable v) {
        boolean u = v.isUnsigned();
        switch (v.getDataType()) {
            case BYTE:
                return u ? NcType.UBYTE : NcType.BYTE;
            case SHORT:
                return u ? NcType.USHORT : NcType.SHORT;
            case INT:
                return u ? NcType.UINT : NcType.INT;
            case LONG:
                return u ? NcType.UINT64 : NcType.INT64;
            case FLOAT:
                return NcType.FLOAT;
            case DOUBLE:
                return NcType.DOUBLE;
            default:
                return null;
        }
    }
}
