package io.nczarr.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.error.CodecException;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The .xz path that bounds the LZMA2 dictionary by the output limit. */
class XzContainerTest {

    @Test
    void corpusXzStreamsTakeTheBoundedPath() throws Exception {
        Path dir = TestSupport.requireCorpus("codecs");
        JsonNode root = new ObjectMapper().readTree(dir.resolve("INDEX.json").toFile());
        int seen = 0;
        for (JsonNode c : root.get("cases")) {
            if (!c.get("codec").asText().equals("lzma")
                    || c.get("config").get("format").asInt() != 1) {
                continue;
            }
            byte[] enc = Files.readAllBytes(dir.resolve(c.get("encoded").asText()));
            byte[] out = XzContainer.decode(enc, c.get("decoded_nbytes").asInt());
            assertNotNull(out, c.get("encoded").asText());
            assertEquals(c.get("decoded_sha256").asText(), TestSupport.sha256(out));
            seen++;
        }
        assertEquals(16, seen);
    }

    @Test
    void sha256CheckAndConcatenatedStreamsWithPadding() throws Exception {
        Path extra = Path.of(getClass()
                .getResource("/codec-extra/data/lzma_xz_preset9_check_sha256.dat")
                .toURI());
        byte[] one = Files.readAllBytes(extra);
        byte[] single = XzContainer.decode(one, 24000);
        assertNotNull(single);
        ByteArrayOutputStream two = new ByteArrayOutputStream();
        two.writeBytes(one);
        two.writeBytes(new byte[8]);
        two.writeBytes(one);
        byte[] both = XzContainer.decode(two.toByteArray(), 48000);
        assertNotNull(both);
        assertEquals(48000, both.length);
        assertEquals(TestSupport.sha256(single), TestSupport.sha256(java.util.Arrays.copyOfRange(both, 24000, 48000)));
        // over the limit, and a corrupted integrity check
        assertThrows(CodecException.class, () -> XzContainer.decode(two.toByteArray(), 47999));
        byte[] bad = one.clone();
        bad[bad.length - 40] ^= 1; // inside the SHA-256 check field
        assertThrows(CodecException.class, () -> XzContainer.decode(bad, 24000));
    }
}
