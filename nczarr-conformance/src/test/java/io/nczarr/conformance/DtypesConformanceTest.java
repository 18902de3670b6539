package io.nczarr.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import ucar.ma2.ArrayStructure;
import ucar.ma2.DataType;
import ucar.ma2.Section;
import ucar.ma2.StructureData;
import ucar.ma2.StructureMembers;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Structure;
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

    @Test
    void objectArraysAndCalendarDatetimesAreListedRecordsRead() throws Exception {
        Corpus.Entry e = Corpus.byName("records");
        try (NetcdfFile nc = NcZarrFiles.open(e.url())) {
            String u = nc.findGlobalAttribute("_unreadable_arrays").getStringValue();
            String[] lines = u.split("\n");
            assertEquals(2, lines.length, u);
            assertTrue(lines[0].startsWith("/months: ") && lines[0].contains("M8[M]"), lines[0]);
            assertTrue(lines[1].startsWith("/ragged: ") && lines[1].contains("vlen-array"), lines[1]);

            Variable blob = nc.findVariable("blob");
            assertEquals(DataType.OPAQUE, blob.getDataType());
            ucar.ma2.Array b = blob.read(new Section(new int[] {2}, new int[] {1}));
            java.nio.ByteBuffer bb = (java.nio.ByteBuffer) b.getObject(0);
            assertEquals(5, bb.remaining());
            assertEquals((byte) 0xff, bb.get(1));

            Structure c = (Structure) nc.findVariable("c64");
            assertEquals(DataType.FLOAT, c.findVariable("real").getDataType());
            // a section of records: the fill record [1, -1] for the chunk never written
            ArrayStructure part = (ArrayStructure) c.read(new Section(new int[] {3}, new int[] {2}));
            StructureMembers.Member real = part.findMember("real");
            StructureMembers.Member imag = part.findMember("imag");
            assertEquals(3.5f, part.getScalarFloat(0, real));
            assertEquals(-1f, part.getScalarFloat(0, imag));
            assertEquals(1f, part.getScalarFloat(1, real));
            assertEquals(-1f, part.getScalarFloat(1, imag));

            Structure rec = (Structure) nc.findVariable("rec");
            StructureData r1 = rec.readStructure(1);
            assertEquals(-2, r1.getScalarInt("a"));
            assertEquals(Double.POSITIVE_INFINITY, r1.getJavaArrayDouble("b")[1]);
            StructureData n = r1.getScalarStructure("n");
            assertEquals((byte) 255, n.getScalarByte("x"));
            assertEquals((short) 1, n.getScalarShort("y"));
            assertEquals(-1f, r1.getScalarStructure("z").getScalarFloat("real"));
            // one member of a nested structure, read alone, for a strided section
            Variable y = ((Structure) rec.findVariable("n")).findVariable("y");
            short[] ys = (short[]) y.read().copyTo1DJavaArray();
            assertArrayEquals(new short[] {-32768, 1, 32767, -3}, ys);
        }
    }

    @Test
    void structuresSurviveNetcdfDatasetEnhancement() throws Exception {
        Corpus.Entry e = Corpus.byName("records");
        try (ucar.nc2.dataset.NetcdfDataset ds = NcZarrFiles.openDataset(e.url(), true)) {
            Structure rec = (Structure) ds.findVariable("rec");
            ArrayStructure all = (ArrayStructure) rec.read();
            assertEquals(4, all.getSize());
            assertEquals(2147483647, all.getScalarInt(2, all.findMember("a")));
            Variable imag = ((Structure) ds.findVariable("c128_be")).findVariable("imag");
            double[] im = (double[]) imag.read().copyTo1DJavaArray();
            assertEquals(-2.5, im[1]);
            assertEquals(-1e-310, im[5]);
        }
    }
}
