package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.testkit.Corpus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * {@code nczarr dump URL | ncgen -4 -o x.nc}: Debian's ncgen (netcdf-c 4.9, package netcdf-bin) accepts the
 * CDL of every corpus dataset, and netCDF-Java reading x.nc sees the values and attributes we serve.
 * Skipped, saying so, only when ncgen is not installed ({@code .ci/run} installs it).
 */
class CdlRoundTripTest {

    /** Datasets ncgen cannot take, with the reason (none so far). */
    private static final Map<String, String> NCGEN_REFUSES = Map.of();

    @TempDir
    static Path tmp;

    static String ncgen() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path p = Path.of(dir, "ncgen");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    static List<Corpus.Entry> datasets() {
        List<Corpus.Entry> all = new ArrayList<>(Corpus.corpusPresent() ? Corpus.datasets() : List.of());
        all.addAll(Corpus.testData());
        all.addAll(Corpus.v3Datasets());
        all.addAll(Corpus.dtypesDatasets());
        return all;
    }

    @TestFactory
    Stream<DynamicTest> ncgenAcceptsOurCdlAndValuesReadBackEqual() {
        String ncgen = ncgen();
        Assumptions.assumeTrue(
                ncgen != null, "ncgen not found on PATH: install netcdf-bin (apt-get install netcdf-bin) to run");
        Stream<DynamicTest> own = datasets().stream()
                .map(e -> DynamicTest.dynamicTest(e.category() + "/" + e.name(), () -> roundTrip(ncgen, e)));
        if (Corpus.corpusPresent()) {
            return own;
        }
        // without the conformance corpus the project's own datasets still run; one skipped test says so
        return Stream.concat(own, Stream.of(DynamicTest.dynamicTest("conformance corpus", Corpus::corpusDir)));
    }

    private static void roundTrip(String ncgen, Corpus.Entry e) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Main.run(
                new String[] {"dump", e.url()},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String cdl = out.toString(StandardCharsets.UTF_8);
        String error = err.toString(StandardCharsets.UTF_8);
        if (rc != 0) {
            // a dataset with an unreadable variable (partial open): the dump fails, naming it, and the CDL
            // is not passed off as complete
            assertEquals(1, rc, error);
            assertTrue(error.startsWith("nczarr dump: "), error);
            Assumptions.abort("dump fails as it should (unreadable data): " + error.strip());
        }
        String reserved = reservedName(cdl);
        if (reserved != null) {
            Assumptions.abort("ncgen cannot read this dataset's CDL (nor ncdump's): it uses the CDL type keyword '"
                    + reserved + "' as a name");
        }
        Path dir = Files.createDirectories(tmp.resolve(e.category() + "-" + e.name()));
        Path cdlFile = dir.resolve("x.cdl");
        Path nc = dir.resolve("x.nc");
        Files.writeString(cdlFile, cdl, StandardCharsets.UTF_8);
        Process p = new ProcessBuilder(ncgen, "-4", "-o", nc.toString(), cdlFile.toString())
                .redirectErrorStream(true)
                .start();
        String ncgenOut = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "ncgen hangs");
        if (NCGEN_REFUSES.containsKey(e.name())) {
            Assumptions.abort(NCGEN_REFUSES.get(e.name()));
        }
        assertEquals(0, p.exitValue(), "ncgen refused the CDL: " + ncgenOut + "\n" + cdl);
        try (NetcdfFile ours = NcZarrFiles.open(e.url());
                NetcdfFile back = NetcdfFile.open(nc.toString())) {
            for (Variable v : ours.getVariables()) {
                if (CdlWriter.typeName(v.getDataType(), false) == null) {
                    continue;
                }
                Variable w = back.findVariable(v.getFullNameEscaped());
                assertNotNull(w, v.getFullName() + " missing after ncgen\n" + cdl);
                assertEquals(v.isUnsigned(), w.isUnsigned(), v.getFullName() + ": unsigned");
                assertSameValues(v.getFullName(), v.read(), w.read());
                for (Attribute a : v.getAttributes()) {
                    if (a.getShortName().startsWith("_") && !a.getShortName().equals("_FillValue")) {
                        continue;
                    }
                    Attribute b = w.findAttribute(a.getShortName());
                    assertNotNull(b, v.getFullName() + ":" + a.getShortName());
                    if (v.isUnsigned() && a.getShortName().equals("_FillValue")) {
                        // ours is in a wider signed type (issue 22, the CF enhancement); the same unsigned value
                        long mask = b.getDataType() == DataType.BYTE
                                ? 0xffL
                                : b.getDataType() == DataType.SHORT ? 0xffffL : 0xffffffffL;
                        assertEquals(
                                b.getNumericValue().longValue() & mask,
                                a.getNumericValue().longValue(),
                                v.getFullName() + ":_FillValue");
                    } else if (!a.isString()) {
                        assertSameValues(v.getFullName() + ":" + a.getShortName(), a.getValues(), b.getValues());
                    } else {
                        for (int i = 0; i < a.getLength(); i++) {
                            assertEquals(a.getStringValue(i), b.getStringValue(i), a.getShortName());
                        }
                    }
                }
            }
        }
    }

    /** A CDL type keyword used as a variable, dimension or attribute name, or null. */
    static String reservedName(String cdl) {
        for (String line : cdl.split("\n")) {
            String s = line.strip();
            for (String k : CdlWriter.TYPE_WORDS) {
                if (s.startsWith(k + " = ")
                        || s.contains(":" + k + " = ")
                        || s.matches("(string )?\\w+ " + k + "(\\(.*\\))? ;")
                        || s.startsWith(k + ":")) {
                    return k;
                }
            }
        }
        return null;
    }

    static void assertSameValues(String what, Array a, Array b) {
        assertEquals(a.getSize(), b.getSize(), what + ": size");
        DataType t = a.getDataType();
        if (t != b.getDataType()
                || t == DataType.STRING
                || t == DataType.OBJECT
                || a.getElementType() == Object.class) {
            for (int i = 0; i < a.getSize(); i++) {
                assertEquals(String.valueOf(a.getObject(i)), String.valueOf(b.getObject(i)), what + "[" + i + "]");
            }
            return;
        }
        for (int i = 0; i < a.getSize(); i++) {
            boolean same;
            if (t == DataType.FLOAT) {
                same = Float.floatToIntBits(a.getFloat(i)) == Float.floatToIntBits(b.getFloat(i));
            } else if (t == DataType.DOUBLE) {
                same = Double.doubleToLongBits(a.getDouble(i)) == Double.doubleToLongBits(b.getDouble(i));
            } else if (t == DataType.CHAR) {
                same = a.getChar(i) == b.getChar(i);
            } else if (t == DataType.STRING) {
                same = String.valueOf(a.getObject(i)).equals(String.valueOf(b.getObject(i)));
            } else {
                same = a.getLong(i) == b.getLong(i);
            }
            if (!same) {
                throw new AssertionError(
                        what + "[" + i + "]: ours " + a.getObject(i) + ", after ncgen " + b.getObject(i));
            }
        }
    }

    @Test
    void specialValuesAndEscapesAsNcdumpSpellsThem() {
        assertEquals("NaNf", CdlWriter.real(Float.NaN, true, true));
        assertEquals("-Infinity", CdlWriter.real(Double.NEGATIVE_INFINITY, false, false));
        assertEquals("Infinityf", CdlWriter.real(Float.POSITIVE_INFINITY, true, false));
        assertEquals("-999.f", CdlWriter.real(-999f, true, true));
        assertEquals("850.", CdlWriter.real(850, false, true));
        assertEquals("850", CdlWriter.real(850, false, false));
        assertEquals("1.e+20f", CdlWriter.real(1e20f, true, true));
        assertEquals("1e+300", CdlWriter.real(1e300, false, false));
        assertEquals("0.1", CdlWriter.real(0.1, false, false));
        assertEquals("1e-20", CdlWriter.real(1e-20f, true, false));
        assertEquals("\"a\\tb\\\"c\\\\\\n\\001\"", CdlWriter.quote("a\tb\"c\\\n\u0001"));
        assertEquals("a\\ b", CdlWriter.name("a b"));
        assertEquals("\\1x", CdlWriter.name("1x"));
    }

    @Test
    void unsignedTypesAndValuesAsNcdumpPrintsThem() throws IOException {
        // test-data/dtypes or the corpus: every unsigned variable prints as u-type, never with _Unsigned
        for (Corpus.Entry e : datasets()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int rc = Main.run(
                    new String[] {"dump", "-h", e.url()},
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            String cdl = out.toString(StandardCharsets.UTF_8);
            if (rc == 0) {
                assertTrue(!cdl.contains("_Unsigned") && !cdl.contains("_ChunkSizes"), e.name() + "\n" + cdl);
                assertTrue(cdl.startsWith("netcdf " + CdlWriter.name(Main.cdlName(e.url())) + " {\n"), cdl);
                assertTrue(!cdl.matches("(?s).*= -\\d+U.*") && !cdl.matches("(?s).*, -\\d+U.*"), e.name() + "\n" + cdl);
            }
        }
    }
}
