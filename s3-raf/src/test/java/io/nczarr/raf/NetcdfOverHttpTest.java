package io.nczarr.raf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.TestFiles;
import io.nczarr.testkit.http.RangeHttpServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.Array;
import ucar.nc2.NCdumpW;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * netCDF-3 classic, 64-bit offset and netCDF-4/HDF5 files (test-data/bytes, made by ncgen) and the
 * shared corpus' {@code *.twin.nc} files, served by a loopback HTTP server and read through
 * {@code mode=bytes} (cdm's own N3/HDF5 readers over {@link BlockCacheRandomAccessFile}): the
 * header and every variable's values equal the same file opened locally with {@code NetcdfFile.open}.
 * Each file is read with a tiny cache (512-byte blocks, 8 of them: constant eviction, many
 * ranges) and with the defaults.
 */
class NetcdfOverHttpTest {
    private static RangeHttpServer server;

    @BeforeAll
    static void start() throws IOException {
        server = RangeHttpServer.start();
        for (Path p : TestFiles.netcdfFiles()) {
            server.put("/" + TestFiles.name(p), p);
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void reset() {
        server.reset();
    }

    static Stream<Arguments> files() {
        List<Arguments> out = new ArrayList<>();
        for (Path p : TestFiles.netcdfFiles()) {
            out.add(Arguments.of(TestFiles.name(p), p, 512, 8));
            out.add(Arguments.of(
                    TestFiles.name(p), p, ByteRangeConfig.DEFAULT_BLOCK_SIZE, ByteRangeConfig.DEFAULT_CACHE_BLOCKS));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} blockSize={2} cacheBlocks={3}")
    @MethodSource("files")
    void everyVariableEqualsTheLocalFile(String name, Path local, int blockSize, int cacheBlocks) throws Exception {
        ByteRangeConfig cfg =
                ByteRangeConfig.defaults().withBlockSize(blockSize).withCacheBlocks(cacheBlocks);
        String url = server.url("/" + name);
        try (NetcdfFile remote = ByteRangeFiles.open(server.uri("/" + name), url + "#mode=bytes", cfg);
                NetcdfFile expected = NetcdfFile.open(local.toString())) {
            assertEquals(url + "#mode=bytes", remote.getLocation());
            assertEquals(expected.getFileTypeId(), remote.getFileTypeId(), "same cdm reader");
            assertEquals(header(expected), header(remote), "header (CDL)");
            List<Variable> vars = expected.getVariables();
            assertFalse(vars.isEmpty());
            for (Variable ev : vars) {
                Variable rv = remote.findVariable(ev.getFullNameEscaped());
                assertNotNull(rv, ev.getFullName());
                assertSameValues(ev.getFullName(), ev.read(), rv.read());
            }
        }
        assertEquals(0, server.heads(), "the length came with the first GET");
    }

    /** The CDL header without its first line (which names the location). */
    static String header(NetcdfFile nc) {
        String cdl = nc.toString();
        return cdl.substring(cdl.indexOf('\n') + 1);
    }

    static void assertSameValues(String what, Array expected, Array actual) {
        assertEquals(expected.getElementType(), actual.getElementType(), what + " element type");
        assertTrue(java.util.Arrays.equals(expected.getShape(), actual.getShape()), what + " shape");
        Object es = expected.getStorage();
        Object as = actual.getStorage();
        if (es != null
                && es.getClass().isArray()
                && es.getClass().getComponentType().isPrimitive()
                && expected.getSize() == java.lang.reflect.Array.getLength(es)) {
            assertTrue(Objects.deepEquals(es, as), what + " values");
        } else {
            assertEquals(
                    NCdumpW.toString(expected, what, null), NCdumpW.toString(actual, what, null), what + " values");
        }
    }

    @Test
    void netcdf4HeaderReadsWellUnderTheWholeObject() throws IOException {
        Path p = TestFiles.bytesDir().resolve("accounting.nc");
        long size = p.toFile().length();
        server.put("/accounting.nc", p);
        ByteRangeConfig cfg = ByteRangeConfig.defaults().withBlockSize(8 * 1024).withCacheBlocks(64);
        try (NetcdfFile nc = ByteRangeFiles.open(server.uri("/accounting.nc"), "accounting.nc", cfg)) {
            long gets = server.gets();
            long bytes = server.bytesSent();
            assertTrue(gets <= 5, gets + " GETs to open the header");
            assertTrue(bytes < size / 4, bytes + " bytes of " + size + " to open the header");
            // a small variable costs little more
            nc.findVariable("station_id").read();
            nc.findVariable("x").read();
            assertTrue(server.bytesSent() < size / 4, server.bytesSent() + " of " + size);
            // a large one is read in few requests
            server.resetCounters();
            nc.findVariable("temp").read();
            assertTrue(server.gets() <= 12, server.gets() + " GETs for temp");
        }
    }

    @Test
    void serverErrorsFailTheOpenOrTheReadNamingTheUrlNeverZeros() throws Exception {
        Path nc4 = TestFiles.bytesDir().resolve("nc4.nc");
        server.put("/err/nc4.nc", nc4);
        String url = server.url("/err/nc4.nc");
        ByteRangeConfig cfg = ByteRangeConfig.defaults()
                .withBlockSize(1024)
                .withCacheBlocks(8)
                .withRetries(1, java.time.Duration.ofMillis(1));

        server.forceStatus(403);
        IOException e = assertThrows(
                java.nio.file.AccessDeniedException.class,
                () -> ByteRangeFiles.open(server.uri("/err/nc4.nc"), url, cfg));
        assertTrue(e.getMessage().contains(url) && e.getMessage().contains("403"), e.getMessage());
        server.reset();

        // a server ignoring Range: a small object is read whole and works...
        server.ignoreRange(true);
        try (NetcdfFile remote = ByteRangeFiles.open(server.uri("/err/nc4.nc"), url, cfg);
                NetcdfFile local = NetcdfFile.open(nc4.toString())) {
            assertSameValues(
                    "field",
                    local.findVariable("field").read(),
                    remote.findVariable("field").read());
        }
        assertEquals(1, server.gets(), "one whole-body GET, then memory");
        // ...a larger one than the limit is refused at open
        e = assertThrows(
                IOException.class,
                () -> ByteRangeFiles.open(server.uri("/err/nc4.nc"), url, cfg.withWholeObjectLimit(4096)));
        assertTrue(e.getMessage().contains(url) && e.getMessage().contains("ignores HTTP Range"), e.getMessage());
        server.reset();

        // a body cut short while reading a variable: an error, not a zero-filled array
        try (NetcdfFile remote = ByteRangeFiles.open(server.uri("/err/nc4.nc"), url, cfg)) {
            server.truncate(true);
            Variable v = remote.findVariable("obs/deeper/value");
            IOException re = assertThrows(IOException.class, v::read);
            assertTrue(
                    String.valueOf(re.getMessage()).contains(url)
                            || String.valueOf(re.getCause()).contains(url),
                    String.valueOf(re));
        } finally {
            server.reset();
        }
    }

    @Test
    void notANetcdfFileIsAClearError() throws IOException {
        server.put("/readme.txt", "hello, this is not netCDF\n".repeat(100).getBytes());
        IOException e = assertThrows(
                IOException.class,
                () -> ByteRangeFiles.open(server.uri("/readme.txt"), server.url("/readme.txt#bytes")));
        assertTrue(
                e.getMessage().contains("/readme.txt#bytes") && e.getMessage().contains("not a netCDF"),
                e.getMessage());
    }

    @Test
    void missingFileFailsTheOpenNamingTheUrl() {
        IOException e = assertThrows(
                IOException.class,
                () -> ByteRangeFiles.open(server.uri("/nope.nc"), server.url("/nope.nc#mode=bytes")));
        assertTrue(
                e.getMessage().contains(server.url("/nope.nc"))
                        && e.getMessage().contains("404"),
                e.getMessage());
    }
}
