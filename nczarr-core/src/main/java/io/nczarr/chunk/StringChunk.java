package io.nczarr.chunk;

import io.nczarr.model.ElementType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Decoded string elements: fixed bytes ({@code |Sn}), fixed UTF-32 ({@code <Un}) or vlen-utf8 ({@code |O}). */
final class StringChunk implements ChunkData {
    private final String[] values;

    private StringChunk(String[] values) {
        this.values = values;
    }

    @Override
    public void copy(int srcStart, int srcStride, Object dest, int destStart, int count) {
        String[] a = (String[]) dest;
        for (int i = 0; i < count; i++) {
            a[destStart + i] = values[srcStart + i * srcStride];
        }
    }

    /**
     * Parses a decoded chunk of {@code n} elements.
     *
     * @throws IllegalArgumentException when the bytes do not hold {@code n} elements
     */
    static StringChunk parse(byte[] data, ElementType et, int n) {
        String[] out = new String[n];
        switch (et.layout()) {
            case FIXED_BYTES: {
                int w = et.itemSize();
                for (int i = 0; i < n; i++) {
                    int start = i * w;
                    int len = 0;
                    while (len < w && data[start + len] != 0) {
                        len++;
                    }
                    out[i] = new String(data, start, len, StandardCharsets.UTF_8);
                }
                return new StringChunk(out);
            }
            case FIXED_UNICODE: {
                ByteBuffer b = ByteBuffer.wrap(data).order(et.order());
                int chars = et.itemSize() / 4;
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < n; i++) {
                    sb.setLength(0);
                    for (int c = 0; c < chars; c++) {
                        int cp = b.getInt((i * chars + c) * 4);
                        if (cp == 0) {
                            break;
                        }
                        sb.appendCodePoint(Character.isValidCodePoint(cp) ? cp : 0xFFFD);
                    }
                    out[i] = sb.toString();
                }
                return new StringChunk(out);
            }
            case VLEN_UTF8: {
                // numcodecs VLenUTF8: int32 LE item count, then (int32 LE length, UTF-8 bytes) per item
                ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
                if (data.length < 4) {
                    throw new IllegalArgumentException("vlen-utf8 chunk of " + data.length + " bytes has no header");
                }
                int items = b.getInt(0);
                if (items != n) {
                    throw new IllegalArgumentException("vlen-utf8 chunk holds " + items + " items, " + n + " expected");
                }
                int pos = 4;
                for (int i = 0; i < n; i++) {
                    if (pos + 4 > data.length) {
                        throw new IllegalArgumentException("vlen-utf8 chunk is truncated at item " + i);
                    }
                    int len = b.getInt(pos);
                    pos += 4;
                    if (len < 0 || len > data.length - pos) {
                        throw new IllegalArgumentException(
                                "vlen-utf8 item " + i + " length " + len + " overruns the chunk");
                    }
                    out[i] = new String(data, pos, len, StandardCharsets.UTF_8);
                    pos += len;
                }
                return new StringChunk(out);
            }
            default:
                throw new IllegalArgumentException("not a string layout: " + et.layout());
        }
    }
}
