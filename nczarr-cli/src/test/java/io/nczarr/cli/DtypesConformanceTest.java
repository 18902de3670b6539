package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.ManifestCompare;
import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * test-data/dtypes (issue 12): float16, datetime64 / timedelta64, an unknown codec and arrays of
 * unknown types, against the manifest its generator made from the values it wrote.
 */
class DtypesConformanceTest {

    @TempDir
    Path tmp;

    static Stream<Corpus.Entry> dtypes() {
        return Corpus.dtypesDatasets().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dtypes")
    void conforms(Corpus.Entry e) throws Exception {
        ManifestCompare.assertConforms(e, CorpusConformanceTest.manifest(e), tmp, "local");
    }

    @Test
    void unknownTypesAreListedAndAnUnknownCodecFailsOnlyTheRead() throws IOException {
        Corpus.Entry e = Corpus.byName("dtypes");
        try (NetcdfFile nc = NcZarrFiles.open(e.url())) {
            Attribute u = nc.findGlobalAttribute("_unreadable_arrays");
            assertNotNull(u);
            String[] lines = u.getStringValue().split("\n");
            assertEquals(1, lines.length, u.getStringValue());
            assertTrue(lines[0].startsWith("/raw: dtype '|V8'"), lines[0]);
            assertNull(nc.findVariable("raw"));
            assertEquals(DataType.STRUCTURE, nc.findVariable("rec").getDataType());

            Variable bad = nc.findVariable("nocodec");
            assertEquals(DataType.INT, bad.getDataType());
            IOException x = assertThrows(IOException.class, bad::read);
            String msg = String.valueOf(x.getMessage());
            assertTrue(msg.contains("nosuchcodec") && msg.contains("nocodec"), msg);

            assertEquals(DataType.FLOAT, nc.findVariable("half").getDataType());
            Variable time = nc.findVariable("time");
            assertEquals(DataType.LONG, time.getDataType());
            assertEquals(
                    "nanoseconds since 1970-01-01T00:00:00",
                    time.findAttribute("units").getStringValue());
        }
    }
}
