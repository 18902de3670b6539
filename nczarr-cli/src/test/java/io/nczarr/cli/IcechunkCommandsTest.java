package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.testkit.Corpus;
import org.junit.jupiter.api.Test;

/** Issue 23: {@code nczarr log} lists an Icechunk repository's refs and history; {@code ls} names the snapshot. */
class IcechunkCommandsTest {
    static final String REPO =
            Corpus.icechunkDir().resolve("native.icechunk").toUri().toString();

    static JsonNode refs() throws Exception {
        return new ObjectMapper()
                .readTree(Corpus.icechunkDir().resolve("native.refs.json").toFile());
    }

    @Test
    void logPrintsBranchesTagsAndHistory() throws Exception {
        JsonNode refs = refs();
        MainTest.Run r = MainTest.run("log", REPO + "#mode=zarr,icechunk&branch=dev");
        assertEquals(0, r.rc(), r.err());
        String out = r.out();
        assertTrue(out.contains("history of branch dev"), out);
        assertTrue(out.contains("snapshot " + refs.get("branches").get("dev").asText() + " (dev)"), out);
        assertTrue(out.contains("snapshot " + refs.get("tags").get("v1").asText() + " (tag: v1)"), out);
        assertTrue(out.contains("dev: fill the second half of temp") && out.contains("Repository initialized"), out);
        assertTrue(!out.contains("second: overwrite"), "main's commit is not in dev's history: " + out);
    }

    @Test
    void lsNamesTheSnapshotRead() throws Exception {
        MainTest.Run r = MainTest.run("ls", REPO + "#mode=zarr,icechunk&tag=v1");
        assertEquals(0, r.rc(), r.err());
        String second = r.out().lines().skip(1).findFirst().orElse("");
        assertEquals(
                "icechunk snapshot " + refs().get("tags").get("v1").asText() + " (tag v1)",
                second.substring(0, second.indexOf(',')));
    }

    @Test
    void logRefusesOtherUrlsAndNamesMissingRefs() {
        MainTest.Run r =
                MainTest.run("log", Corpus.v3Dir().resolve("codecs.zarr").toString());
        assertEquals(2, r.rc());
        r = MainTest.run("log", REPO + "#mode=zarr,icechunk&tag=nope");
        assertEquals(1, r.rc());
        assertTrue(r.err().contains("no tag 'nope'") && r.err().contains("native.icechunk"), r.err());
    }
}
