package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.ChunkException;
import io.nczarr.error.MetadataException;
import io.nczarr.error.NcZarrException;
import io.nczarr.testkit.Corpus;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/** What reaches a netCDF-Java caller when something is wrong: the project's types, naming what failed. */
class ErrorTypesTest {

    private static String sample() {
        return Corpus.testDataDir().resolve("sample.file").toUri() + "#mode=nczarr,file";
    }

    /**
     * cdm 4.5.5's {@code Variable.read} checks a section against the shape before any IOSP is asked (its
     * message names the dimension only); a section reaching the IOSP some other way is checked again and
     * named by dataset and variable.
     */
    @Test
    void aSectionOutsideTheShapeIsRefused() throws Exception {
        try (NetcdfFile nc = NcZarrFiles.open(sample())) {
            Variable temp = nc.findVariable("temp");
            assertThrows(InvalidRangeException.class, () -> temp.read("0:99,0,0"));
            InvalidRangeException e = assertThrows(
                    InvalidRangeException.class, () -> nc.getIosp().readData(temp, new Section("0:99,0:0,0:0")));
            String m = e.getMessage();
            assertTrue(m.contains("'temp'"), m);
            assertTrue(m.contains("sample.file"), m);
        }
    }

    @Test
    void aMalformedUrlIsTheProjectsException() {
        NcZarrException e = assertThrows(NcZarrException.class, () -> NcZarrFiles.open("file:///x#mode=nczarr,zip,s3"));
        assertTrue(e.getMessage().contains("zip") && e.getMessage().contains("s3"), e.getMessage());
    }

    @Test
    void brokenMetadataIsAMetadataExceptionWithItsKey() {
        Corpus.Entry bad = Corpus.byName("bad_json_zarray");
        MetadataException e = assertThrows(MetadataException.class, () -> NcZarrFiles.open(bad.url()));
        assertTrue(e.key() != null && e.key().endsWith(".zarray"), String.valueOf(e.key()));
        assertTrue(e.dataset() != null && e.dataset().contains("bad_json_zarray"), e.dataset());
    }

    @Test
    void aTruncatedChunkKeepsItsTypeUpToTheCaller() throws IOException {
        Corpus.Entry bad = Corpus.byName("bad_chunk_truncated");
        try (NetcdfFile nc = NcZarrFiles.open(bad.url())) {
            Variable v = nc.findVariable("v");
            ChunkException e = assertThrows(ChunkException.class, v::read);
            assertEquals("v", e.variable());
            assertTrue(e.key() != null && e.key().startsWith("v/"), e.key());
            assertTrue(e.dataset() != null && e.dataset().contains("bad_chunk_truncated"), e.dataset());
        }
    }
}
