package io.nczarr.cdm;

import io.nczarr.dtype.CompoundType;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.model.ElementType;
import io.nczarr.model.NcType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import ucar.ma2.ArrayStructureBB;
import ucar.ma2.DataType;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.StructureMembers;
import ucar.nc2.Attribute;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Structure;
import ucar.nc2.Variable;

/**
 * Record types ({@link CompoundType}: complex numbers, structured dtypes) as netCDF-Java 4.5.5
 * {@link Structure}s: members are variables with anonymous dimensions for sub-array fields, nested
 * records are nested structures; data are {@link ArrayStructureBB}s over the packed records the
 * chunk reader returns, each member read at its offset in its own byte order.
 */
final class CdmStructures {
    private CdmStructures() {}

    /** Adds the members of {@code type} to {@code s} (whose dimensions are set by the caller). */
    static void addMembers(NetcdfFile ncfile, Group g, Structure s, CompoundType type) {
        for (CompoundType.Member m : type.members()) {
            Variable mv;
            if (m.nested() != null) {
                Structure ns = new Structure(ncfile, g, s, m.name());
                anonymous(ns, m.shape());
                addMembers(ncfile, g, ns, m.nested());
                mv = ns;
            } else {
                mv = new Variable(ncfile, g, s, m.name());
                NcType t = memberType(m.type());
                mv.setDataType(CdmValues.dataType(t));
                anonymous(mv, m.shape());
                if (t.isUnsigned()) {
                    mv.addAttribute(new Attribute(CdmValues.UNSIGNED, "true"));
                }
            }
            s.addMemberVariable(mv);
        }
        s.calcElementSize();
    }

    /** Anonymous dimensions of a member's sub-array shape (positive lengths, checked by the model). */
    private static void anonymous(Variable v, int[] shape) {
        try {
            v.setDimensionsAnonymous(shape);
        } catch (InvalidRangeException e) {
            throw new IllegalArgumentException("member " + v.getShortName() + ": " + e.getMessage(), e);
        }
    }

    /** The netCDF type of a leaf member: numbers as usual, datetimes as int64 counts, {@code |S1} as char. */
    static NcType memberType(NumpyDtype dt) {
        if (dt.kind() == 'S') {
            return NcType.CHAR;
        }
        if (dt.kind() == 'M' || dt.kind() == 'm') {
            return NcType.INT64;
        }
        return ElementType.numericType(dt);
    }

    /**
     * The records of a read as CDM structures. {@code s} may be a selection of the variable's members
     * ({@code Structure.select}, which is how CDM reads one member): only its members are described.
     */
    static ArrayStructureBB array(Structure s, CompoundType type, int[] shape, byte[] records) {
        StructureMembers sm = s.makeStructureMembers();
        describe(sm, type);
        return new ArrayStructureBB(sm, shape, ByteBuffer.wrap(records), 0);
    }

    private static void describe(StructureMembers sm, CompoundType type) {
        sm.setStructureSize(type.itemsize());
        List<StructureMembers.Member> members = new ArrayList<>(sm.getMembers());
        for (StructureMembers.Member cm : members) {
            CompoundType.Member m = find(type, cm.getName());
            cm.setDataParam(m.offset());
            if (m.nested() != null) {
                describe(cm.getStructureMembers(), m.nested());
            } else {
                cm.setDataObject(m.type().itemsize() > 1 ? m.type().order() : ByteOrder.BIG_ENDIAN);
            }
        }
    }

    /** The model member a CDM member stands for: CDM names are the model's made valid (spaces → underscores). */
    private static CompoundType.Member find(CompoundType type, String cdmName) {
        for (CompoundType.Member m : type.members()) {
            if (m.name().equals(cdmName)
                    || NetcdfFile.makeValidCdmObjectName(m.name()).equals(cdmName)) {
                return m;
            }
        }
        throw new IllegalStateException("no member '" + cdmName + "' in " + type);
    }

    /** The CDM data type of a member (for messages and tests). */
    static DataType dataType(CompoundType.Member m) {
        return m.nested() != null ? DataType.STRUCTURE : CdmValues.dataType(memberType(m.type()));
    }
}
