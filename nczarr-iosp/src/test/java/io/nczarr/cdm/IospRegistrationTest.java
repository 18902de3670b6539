package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.Corpus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import ucar.nc2.NetcdfFile;

/** NcZarrFiles puts the IOSP ahead of cdm's built-ins, so NetcdfFile.open of a .zgroup prints nothing. */
class IospRegistrationTest {

    @Test
    void zgroupThroughNetcdfFileOpenPrintsNothing() throws Exception {
        NcZarrFiles.registerIosp();
        // a pure Zarr store: its tiny .zgroup made a built-in cdm IOSP print "In isValidFile(): java.io.EOFException"
        String zgroup =
                Corpus.byName("zarr_chunk_edges").path().resolve(".zgroup").toString();
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            try (NetcdfFile nc = NetcdfFile.open(zgroup)) {
                assertNotNull(nc.getRootGroup());
                assertEquals("NcZarr", nc.getIosp().getClass().getSimpleName().replace("Iosp", ""));
            }
        } finally {
            System.setOut(stdout);
        }
        assertEquals("", captured.toString(StandardCharsets.UTF_8));
    }

    @Test
    void registeredOnceEvenFromManyThreads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                fs.add(pool.submit(NcZarrFiles::registerIosp));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        assertTrue(NetcdfFile.iospRegistered(NcZarrIosp.class));
    }
}
