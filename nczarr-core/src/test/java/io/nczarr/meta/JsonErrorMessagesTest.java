package io.nczarr.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.MetadataException;
import io.nczarr.error.StoreException;
import io.nczarr.store.DirectoryStore;
import io.nczarr.store.MemoryLimits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Malformed metadata is reported by key and position with at most a short printable excerpt: the bytes
 * may be anything (a link to {@code /proc/self/environ} quoted its first variable name before), so the
 * parser's own message, which quotes them at length, is not passed on.
 */
class JsonErrorMessagesTest {

    @TempDir
    Path tmp;

    private static MetadataException malformed(String text) {
        return assertThrows(
                MetadataException.class, () -> Json.parse("ds", "v/.zarray", text.getBytes(StandardCharsets.UTF_8)));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"shape\": [1,   | ds: v/.zarray: malformed JSON: unexpected end of input at line 1, column 14,"
                        + " near '{\"shape\": [1,'",
                "{\"shape\": [1,]} | ds: v/.zarray: malformed JSON: syntax error at line 1, column 14, near"
                        + " '{\"shape\": [1,]}'",
                "{\"a\": tru}      | ds: v/.zarray: malformed JSON: syntax error at line 1, column 7, near '{\"a\": tru}'",
                "SHELL=/bin/sh      | ds: v/.zarray: malformed JSON: syntax error at line 1, column 1, near 'SHELL=/bin/sh'",
            })
    void positionAndAShortExcerpt(String text, String message) {
        MetadataException e = malformed(text.strip());
        assertEquals(message, e.getMessage());
        assertNull(e.getCause(), "the parser's exception quotes the text");
    }

    @Test
    void theExcerptIsShortAndPrintable() {
        String tail = "TAIL-NEVER-SHOWN";
        String text = "x".repeat(300) + tail + "\u0000\u0007\u00e9'";
        MetadataException e = malformed(text);
        assertFalse(e.getMessage().contains(tail.substring(0, 5)), e.getMessage());
        int from = e.getMessage().indexOf("near '") + 6;
        String excerpt = e.getMessage().substring(from, e.getMessage().length() - 1);
        assertTrue(excerpt.length() <= Json.EXCERPT_CHARS, excerpt);
        assertTrue(excerpt.chars().allMatch(c -> c >= 0x20 && c < 0x7f && c != '\''), excerpt);
    }

    @Test
    void controlBytesAreNotEchoed() {
        MetadataException e = malformed("{\"a\": \u0001\u0002ESC\u001b[31m}");
        assertFalse(e.getMessage().chars().anyMatch(c -> c < 0x20), e.getMessage());
    }

    @Test
    void anEnvironmentFileLinkedAsMetadataIsRefusedBeforeParsing() throws IOException {
        Path environ = Path.of("/proc/self/environ");
        Assumptions.assumeTrue(Files.isReadable(environ), "no /proc/self/environ here");
        Path ds = Files.createDirectories(tmp.resolve("ds"));
        Files.createSymbolicLink(ds.resolve(".zgroup"), environ);
        byte[] content = Files.readAllBytes(environ);
        String firstName = new String(content, StandardCharsets.ISO_8859_1).split("[=\u0000]", 2)[0];

        try (DirectoryStore s = new DirectoryStore(ds)) {
            StoreException e = assertThrows(StoreException.class, () -> Json.readObject(s, ".zgroup"));
            assertTrue(e.getMessage().contains("outside the dataset"), e.getMessage());
            if (firstName.length() >= 3) {
                assertFalse(e.getMessage().contains(firstName), e.getMessage());
            }
        }
        // links out allowed: parsed, but the message shows no more than the short excerpt
        try (DirectoryStore s = new DirectoryStore(ds, MemoryLimits.defaults().maxObjectBytes(), true)) {
            MetadataException e = assertThrows(MetadataException.class, () -> Json.readObject(s, ".zgroup"));
            String m = e.getMessage();
            String text = new String(content, StandardCharsets.ISO_8859_1);
            for (int i = 0; i + Json.EXCERPT_CHARS + 1 <= text.length(); i++) {
                String piece = text.substring(i, i + Json.EXCERPT_CHARS + 1);
                assertFalse(m.contains(piece), m);
            }
            assertNull(e.getCause());
        }
    }
}
