package io.nczarr.codec;

import io.nczarr.error.CodecException;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/** numcodecs {@code zlib}: a zlib (RFC 1950) stream; netcdf-c's deflate filter writes the same id. */
final class ZlibCodec implements InPlaceBytesCodec {

    private static final String ID = "zlib";

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        return inflate(ID, encoded, 0, encoded.length, maxDecodedBytes);
    }

    @Override
    public byte[] decodeInto(byte[] encoded, int encodedLength, byte[] out, int len) throws CodecException {
        Inflater inf = new Inflater();
        try {
            inf.setInput(encoded, 0, encodedLength);
            int n = 0;
            while (!inf.finished() && n < len) {
                int k = inf.inflate(out, n, len - n);
                n += k;
                if (k == 0 && !inf.finished() && (inf.needsInput() || inf.needsDictionary())) {
                    throw stall(ID, inf);
                }
            }
            if (!inf.finished()) {
                // full: the stream may only end here (its trailer needs no output space)
                if (inf.inflate(new byte[1]) > 0) {
                    throw new CodecException(ID + ": decoded data exceeds the expected " + len + " bytes");
                }
                if (!inf.finished()) {
                    throw stall(ID, inf);
                }
            }
            return n == len ? out : Arrays.copyOf(out, n);
        } catch (DataFormatException e) {
            throw new CodecException(ID + ": corrupt compressed data (" + e.getMessage() + ")", e);
        } finally {
            inf.end();
        }
    }

    /** Inflates one stream; the output may not pass {@code limit} bytes. */
    static byte[] inflate(String id, byte[] in, int off, int len, int limit) throws CodecException {
        Inflater inf = new Inflater();
        try {
            inf.setInput(in, off, len);
            // The reader passes the chunk's decoded size as limit, so start there (an exact fit
            // needs no copy); a huge limit starts smaller and grows, never past limit.
            byte[] buf = new byte[initialSize(limit, len)];
            int n = 0;
            while (!inf.finished()) {
                if (n == buf.length) {
                    if (n >= limit) {
                        // full: the stream may only end here (its trailer needs no output space)
                        if (inf.inflate(new byte[1]) > 0) {
                            throw new CodecException(id + ": decoded data exceeds the expected " + limit + " bytes");
                        }
                        if (inf.finished()) {
                            break;
                        }
                        throw stall(id, inf);
                    }
                    buf = Arrays.copyOf(buf, (int) Math.min(limit, 2L * buf.length));
                }
                int k = inf.inflate(buf, n, buf.length - n);
                n += k;
                if (k == 0 && !inf.finished() && (inf.needsInput() || inf.needsDictionary())) {
                    throw stall(id, inf);
                }
            }
            return n == buf.length ? buf : Arrays.copyOf(buf, n);
        } catch (DataFormatException e) {
            throw new CodecException(id + ": corrupt compressed data (" + e.getMessage() + ")", e);
        } finally {
            inf.end();
        }
    }

    static int initialSize(int limit, int len) {
        if (limit <= (64 << 20)) {
            return Math.max(limit, 0);
        }
        return (int) Math.min(limit, Math.max(64L << 20, 8L * len));
    }

    private static CodecException stall(String id, Inflater inf) {
        if (inf.needsDictionary()) {
            return new CodecException(id + ": stream needs a preset dictionary");
        }
        return new CodecException(id + ": compressed stream is truncated");
    }
}
