package io.nczarr.codec;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/** Small helpers shared by the codecs. */
final class CodecSupport {
    private CodecSupport() {
    }

    /**
     * Drains a decompressing stream into a {@link BoundedOutput}: the result can never pass
     * {@code limit}, whatever the stream claims. Stream errors become {@link CodecException}s.
     */
    static byte[] drain(String id, InputStream in, int limit, long sizeHint) throws CodecException {
        int hint = (int) Math.max(0, Math.min(limit, sizeHint < 0 ? 64 * 1024 : sizeHint));
        BoundedOutput out = new BoundedOutput(id, limit, hint);
        try (in) {
            while (true) {
                byte[] buf = out.buffer();
                int n = in.read(buf, out.size(), buf.length - out.size());
                if (n < 0) {
                    return out.toArray();
                }
                out.advance(n);
            }
        } catch (CodecException e) {
            throw e;
        } catch (EOFException e) {
            throw new CodecException(id + ": compressed data is truncated", e);
        } catch (IOException | RuntimeException e) {
            throw new CodecException(id + ": corrupt or truncated compressed data (" + e + ")", e);
        }
    }

    static int le32(byte[] b, int off) {
        return (b[off] & 0xFF) | (b[off + 1] & 0xFF) << 8 | (b[off + 2] & 0xFF) << 16 | (b[off + 3] & 0xFF) << 24;
    }

    static void putLe32(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
        b[off + 2] = (byte) (v >>> 16);
        b[off + 3] = (byte) (v >>> 24);
    }

    static CodecException tooLarge(String id, long declared, int limit) {
        return new CodecException(id + ": declared decoded size " + declared + " exceeds the expected "
                + limit + " bytes");
    }

    /** The array dtype of the config, or the named parameter when present. */
    static NumpyDtype dtypeParam(CodecConfig c, String name) throws CodecException {
        String s = c.stringParam(name, null);
        if (s == null) {
            s = c.arrayDtype();
        }
        if (s == null) {
            throw new CodecException("codec '" + c.id() + "': parameter '" + name + "' is missing");
        }
        try {
            return NumpyDtype.parse(s);
        } catch (CodecException e) {
            throw new CodecException("codec '" + c.id() + "': " + e.getMessage());
        }
    }
}
