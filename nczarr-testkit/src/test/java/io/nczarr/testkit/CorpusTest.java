package io.nczarr.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CorpusTest {

    @Test
    void aMissingCorpusSaysWhereItLookedAndHowToFixIt(@TempDir Path empty) {
        CorpusAbsentException e = assertThrows(CorpusAbsentException.class, () -> Corpus.corpusDir(empty.toString()));
        assertEquals(Corpus.missing(empty.toAbsolutePath().normalize()), e.getMessage());
        assertTrue(e.getMessage().contains("-Dcorpus.dir"), e.getMessage());
        assertTrue(e.getMessage().contains(empty.toString()), e.getMessage());
    }

    @Test
    void theSkipLineNamesTheCountAndShared() {
        assertTrue(CorpusSkipReport.line(3).endsWith(": 3 corpus tests skipped"), CorpusSkipReport.line(3));
        assertTrue(CorpusSkipReport.line(1).startsWith("conformance corpus not found at "), CorpusSkipReport.line(1));
    }

    @Test
    void ownEntriesAreFoundWithoutTheCorpus() {
        assertEquals("sample", Corpus.byName("sample").name());
    }

    @Test
    void theCorpusIsFoundWhereThePomSaysItIs() {
        assertTrue(Corpus.datasets().size() > 10);
        assertTrue(Corpus.bad().size() > 5);
    }
}
