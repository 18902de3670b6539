package io.nczarr.codec;

import io.nczarr.error.CodecException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * numcodecs {@code vlen-utf8} / {@code vlen-bytes}, object codecs of {@code |O} arrays. Decode is
 * the identity after validating the layout (int32 LE item count, then per item an int32 LE length
 * and that many bytes, UTF-8 for vlen-utf8); the chunk reader parses the items.
 */
final class VlenCodec implements ArrayBytesCodec {

    private final String id;
    private final boolean utf8;

    VlenCodec(String id, boolean utf8) {
        this.id = id;
        this.utf8 = utf8;
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        if (encoded.length > maxDecodedBytes) {
            throw CodecSupport.tooLarge(id, encoded.length, maxDecodedBytes);
        }
        validate(id, utf8, encoded);
        return encoded;
    }

    /** Checks the layout; returns the item count. */
    static int validate(String id, boolean utf8, byte[] b) throws CodecException {
        if (b.length < 4) {
            throw new CodecException(id + ": data is truncated (no item count)");
        }
        long n = CodecSupport.le32(b, 0) & 0xFFFFFFFFL;
        if (n * 4 > b.length - 4L) {
            throw new CodecException(id + ": corrupt data (" + n + " items cannot fit in " + b.length + " bytes)");
        }
        var dec = utf8
                ? StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                : null;
        int p = 4;
        for (long i = 0; i < n; i++) {
            if (b.length - p < 4) {
                throw new CodecException(id + ": data is truncated (item " + i + " of " + n + ")");
            }
            long len = CodecSupport.le32(b, p) & 0xFFFFFFFFL;
            p += 4;
            if (len > b.length - p) {
                throw new CodecException(id + ": data is truncated (item " + i + " of " + n + ")");
            }
            if (dec != null) {
                try {
                    dec.reset();
                    dec.decode(ByteBuffer.wrap(b, p, (int) len));
                } catch (CharacterCodingException e) {
                    throw new CodecException(id + ": item " + i + " is not valid UTF-8");
                }
            }
            p += (int) len;
        }
        return (int) n;
    }
}
