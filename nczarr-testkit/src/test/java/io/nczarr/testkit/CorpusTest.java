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
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Corpus.corpusDir(empty.toString()));
        assertEquals(Corpus.missing(empty.toAbsolutePath().normalize()), e.getMessage());
        assertTrue(e.getMessage().contains("-Dcorpus.dir"), e.getMessage());
        assertTrue(e.getMessage().contains(empty.toString()), e.getMessage());
    }

    @Test
    void theCorpusIsFoundWhereThePomSaysItIs() {
        assertTrue(Corpus.datasets().size() > 10);
        assertTrue(Corpus.bad().size() > 5);
    }
}
