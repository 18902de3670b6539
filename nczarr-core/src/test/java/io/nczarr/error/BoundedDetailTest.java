package io.nczarr.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Details quote hostile input; a message stays a log line whatever the input. */
class BoundedDetailTest {

    @Test
    void aLongDetailKeepsBothEndsAndSaysWhatIsLeftOut() {
        String detail = "fill_value \"" + "x".repeat(200_000) + "\" is not a valid <i4 fill value";
        MetadataException e = new MetadataException("ds", "v/.zarray", detail);
        assertTrue(
                e.detail().length() <= NcZarrException.MAX_DETAIL + 40,
                String.valueOf(e.detail().length()));
        assertTrue(e.detail().startsWith("fill_value \"xxx"), e.detail());
        assertTrue(e.detail().endsWith("is not a valid <i4 fill value"), e.detail());
        assertTrue(e.detail().contains("characters left out"), e.detail());
        assertTrue(e.getMessage().startsWith("ds: v/.zarray: fill_value"), e.getMessage());
    }

    @Test
    void shortDetailsAndContextAreUnchanged() {
        MetadataException e = new MetadataException("ds", "v/.zarray", "order: 'X' is neither C nor F");
        assertEquals("ds: v/.zarray: order: 'X' is neither C nor F", e.getMessage());
        String longDetail = "y".repeat(5_000);
        CodecException c = new CodecException(longDetail);
        CodecException withContext = c.withContext("ds", "v/0", "v");
        assertEquals(c.detail(), withContext.detail());
    }

    @Test
    void surrogatePairsAreNotCutInHalf() {
        String emoji = "\uD83D\uDE00";
        String detail = emoji.repeat(2_000);
        String b = NcZarrException.bounded(detail);
        for (int i = 0; i < b.length(); i++) {
            char ch = b.charAt(i);
            if (Character.isHighSurrogate(ch)) {
                assertTrue(i + 1 < b.length() && Character.isLowSurrogate(b.charAt(i + 1)), "cut at " + i);
            } else if (Character.isLowSurrogate(ch)) {
                assertTrue(i > 0 && Character.isHighSurrogate(b.charAt(i - 1)), "cut at " + i);
            }
        }
    }
}
