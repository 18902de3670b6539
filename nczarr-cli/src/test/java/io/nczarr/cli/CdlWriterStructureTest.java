package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import ucar.ma2.DataType;
import ucar.nc2.Dimension;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFileSubclass;
import ucar.nc2.Structure;
import ucar.nc2.Variable;

/** A Structure variable is a CDL compound type (issue 25; DumpCompoundTest checks values through ncgen). */
class CdlWriterStructureTest {

    @Test
    void structureVariableIsACompoundTypeAndTheRestIsPrinted() throws Exception {
        NetcdfFile nc = new NetcdfFileSubclass();
        Dimension d = new Dimension("n", 2);
        nc.addDimension(null, d);
        Structure s = new Structure(nc, null, null, "pairs");
        s.setDimensions("n");
        Variable re = new Variable(nc, null, s, "re");
        re.setDataType(DataType.FLOAT);
        re.setDimensions("");
        s.addMemberVariable(re);
        nc.addVariable(null, s);
        Variable plain = new Variable(nc, null, null, "plain");
        plain.setDataType(DataType.INT);
        plain.setDimensions("n");
        nc.addVariable(null, plain);
        nc.finish();
        StringWriter out = new StringWriter();
        CdlWriter.write(nc, "x", CdlWriter.Values.NONE, null, out);
        String cdl = out.toString();
        assertTrue(cdl.startsWith("netcdf x {\ntypes:\n  compound pairs_t {\n    float re ;\n  }; // pairs_t\n"), cdl);
        assertTrue(cdl.contains("\tpairs_t pairs(n) ;\n"), cdl);
        assertTrue(cdl.contains("\tint plain(n) ;\n"), cdl);
    }
}
