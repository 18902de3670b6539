package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.nczarr.testkit.Corpus;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;
import ucar.nc2.Dimension;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * Files from {@link NcZarrFiles} are built in {@link CdmGroup}s (no duplicate-name walk); the
 * ServiceLoader path ({@code NetcdfFile.open} of the root {@code .zgroup}) builds cdm's own groups
 * through cdm's checked adds. Both must give the same file.
 */
class CdmGroupTest {

    private static String cdlBody(NetcdfFile nc) {
        String cdl = nc.toString();
        return cdl.substring(cdl.indexOf('\n')); // the first line names the location
    }

    @Test
    void sameFileAsCdmsOwnGroupsBuild() throws Exception {
        int compared = 0;
        for (String name : List.of("sample", "edge")) {
            Corpus.Entry e = Corpus.byName(name);
            if (!Files.exists(e.path().resolve(".zgroup"))) {
                continue;
            }
            compared++;
            try (NetcdfFile fast = NcZarrFiles.open(e.url());
                    NetcdfFile plain =
                            NetcdfFile.open(e.path().resolve(".zgroup").toString())) {
                assertInstanceOf(CdmGroup.class, fast.getRootGroup(), name);
                assertEquals(cdlBody(plain), cdlBody(fast), name);
                for (Variable v : fast.getVariables()) {
                    assertSame(v, fast.findVariable(v.getFullNameEscaped()), v.getFullName());
                    Group g = v.getParentGroup();
                    assertNotNull(g, v.getFullName());
                    assertSame(v, g.findVariable(v.getShortName()), v.getFullName());
                    for (Dimension d : v.getDimensions()) {
                        if (d.isShared()) {
                            assertSame(d, d.getGroup().findDimensionLocal(d.getShortName()), d.toString());
                        }
                    }
                }
            }
        }
        assertEquals(2, compared);
    }
}
