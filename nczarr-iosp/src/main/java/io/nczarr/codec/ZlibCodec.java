package io.nczarr.codec;

import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/** numcodecs {@code zlib}: a zlib (RFC 1950) stream; netcdf-c's deflate filter writes the same id. */
final class ZlibCodec implements Codec {

    private final boolean nowrap;
    private final String id;

    ZlibCodec(String id, boolean nowrap) {
        this.id = id;
        this.nowrap = nowrap;
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        return inflate(id, encoded, 0, encoded.length, nowrap, maxDecodedBytes);
    }

    /** Inflates one stream; the output may not pass {@code limit} bytes. */
    static byte[] inflate(String id, byte[] in, int off, int len, boolean nowrap, int limit) throws CodecException {
        Inflater inf = new Inflater(nowrap);
        try {
            inf.setInput(in, off, len);
            // A chunk rarely compresses by more than 4:1 here; start there and grow up to limit.
            BoundedOutput out = new BoundedOutput(id, limit, limit);
            while (!inf.finished()) {
                byte[] buf = out.buffer();
                int n = inf.inflate(buf, out.size(), buf.length - out.size());
                if (n == 0) {
                    if (inf.needsInput()) {
                        throw new CodecException(id + ": compressed stream is truncated");
                    }
                    if (inf.needsDictionary()) {
                        throw new CodecException(id + ": stream needs a preset dictionary");
                    }
                }
                out.advance(n);
            }
            return out.toArray();
        } catch (DataFormatException e) {
            throw new CodecException(id + ": corrupt compressed data (" + e.getMessage() + ")", e);
        } finally {
            inf.end();
        }
    }

    static final class Factory implements CodecFactory {
        @Override
        public String id() {
            return "zlib";
        }

        @Override
        public Codec create(CodecConfig config) {
            return new ZlibCodec("zlib", false);
        }
    }
}
