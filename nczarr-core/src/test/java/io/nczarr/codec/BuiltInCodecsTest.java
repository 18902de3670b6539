package io.nczarr.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.nczarr.error.CodecException;
import org.junit.jupiter.api.Test;

/** The built-in ids and the factory's switch name the same codecs (the class keeps them in two places). */
class BuiltInCodecsTest {
    @Test
    void everyListedIdHasACaseInTheFactory() {
        for (CodecFactory f : BuiltInCodecs.factories(NativeCodecs.none())) {
            CodecConfig empty = new CodecConfig(f.id(), JsonNodeFactory.instance.objectNode(), "<f4");
            try {
                f.create(empty);
            } catch (CodecException e) {
                // a parameter the empty configuration lacks: the id was recognised
            } catch (IllegalStateException e) {
                fail(f.id() + ": listed in IDS but not created by the switch (" + e.getMessage() + ")");
            }
        }
    }

    @Test
    void theListHasNoDuplicates() {
        assertEquals(
                BuiltInCodecs.IDS.size(), BuiltInCodecs.IDS.stream().distinct().count());
    }
}
