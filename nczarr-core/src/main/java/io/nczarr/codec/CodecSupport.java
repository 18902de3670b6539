package io.nczarr.codec;

import io.nczarr.dtype.InvalidDtypeException;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/** Small helpers shared by the codecs. */
final class CodecSupport {
    private CodecSupport() {}

    /**
     * Drains a decompressing stream into a bounded, growable buffer: the result can never pass
     * {@code limit}, whatever the stream claims. Stream errors become {@link CodecException}s.
     */
    static byte[] drain(String id, InputStream in, int limit, long sizeHint) throws CodecException {
        // limit is normally the chunk's decoded size: allocate it at once (an exact fit needs no
        // copy) unless it is huge, then start from the hint and grow up to limit
        int hint =
                limit <= (64 << 20) ? limit : (int) Math.min(limit, Math.max(64L << 20, sizeHint < 0 ? 0 : sizeHint));
        try (in) {
            byte[] buf = new byte[Math.max(0, hint)];
            int n = 0;
            while (true) {
                if (n == buf.length) {
                    if (n >= limit) {
                        // full: only the end of the stream may follow
                        if (in.read() >= 0) {
                            throw new CodecException(id + ": decoded data exceeds the expected " + limit + " bytes");
                        }
                        return buf;
                    }
                    buf = Arrays.copyOf(buf, (int) Math.min(limit, Math.max(16L, 2L * buf.length)));
                }
                int k = in.read(buf, n, buf.length - n);
                if (k < 0) {
                    return n == buf.length ? buf : Arrays.copyOf(buf, n);
                }
                n += k;
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
        return new CodecException(
                id + ": declared decoded size " + declared + " exceeds the expected " + limit + " bytes");
    }

    /** A filter's {@code dtype} and {@code astype} (astype defaults to dtype); both must be numeric. */
    record DtypePair(NumpyDtype dtype, NumpyDtype astype) {}

    static DtypePair numericDtypes(CodecConfig c) throws CodecException {
        NumpyDtype dtype = dtypeParam(c, "dtype");
        NumpyDtype astype = c.stringParam("astype", null) == null ? dtype : dtypeParam(c, "astype");
        if (!dtype.isNumeric() || !astype.isNumeric()) {
            throw new CodecException(
                    "codec '" + c.id() + "': numeric dtypes needed, got " + dtype.str() + " / " + astype.str());
        }
        return new DtypePair(dtype, astype);
    }

    /** The named dtype parameter, or the array dtype of the config when the parameter is absent. */
    static NumpyDtype dtypeParam(CodecConfig c, String name) throws CodecException {
        String s = c.stringParam(name, null);
        if (s == null) {
            s = c.arrayDtype();
        }
        if (s == null) {
            throw new CodecException("codec '" + c.id() + "': parameter '" + name + "' is missing");
        }
        return dtype(c, s);
    }

    /** Parses a dtype given to codec {@code c}; a bad one is a {@link CodecException} naming the codec. */
    static NumpyDtype dtype(CodecConfig c, String s) throws CodecException {
        try {
            return NumpyDtype.parse(s);
        } catch (InvalidDtypeException e) {
            throw new CodecException("codec '" + c.id() + "': " + e.getMessage());
        }
    }

    /** A dtype this code spells itself, so it cannot be invalid. */
    static NumpyDtype knownDtype(String s) {
        try {
            return NumpyDtype.parse(s);
        } catch (InvalidDtypeException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
