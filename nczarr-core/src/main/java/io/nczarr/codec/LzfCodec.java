package io.nczarr.codec;

import io.nczarr.error.CodecException;

/**
 * imagecodecs {@code imagecodecs_lzf} (VirtualiZarr's name for HDF5's LZF filter): liblzf's format,
 * with {@code header} (the default) a 4-byte little-endian decoded size in front. Runs of literals
 * ({@code 000LLLLL}: L+1 bytes) and back references ({@code LLLooooo oooooooo}, length L+2, or
 * {@code 111ooooo LLLLLLLL oooooooo}, length L+9; distance o+1).
 *
 * <p>VirtualiZarr 2.8 declares {@code "header": true} for HDF5's LZF filter (h5py), which writes no header
 * (zarr-python then fails on such references). When a chunk does not decode with the header, it is decoded
 * as a bare liblzf stream and accepted only if that fills exactly the expected chunk size; otherwise the
 * header's error stands. A stream that decodes with its header is never reinterpreted.
 */
final class LzfCodec implements BytesBytesCodec {

    private static final String ID = "imagecodecs_lzf";

    private final boolean header;

    private LzfCodec(boolean header) {
        this.header = header;
    }

    static LzfCodec create(CodecConfig config) throws CodecException {
        config.requireOnly("header");
        String h = config.stringParam("header", "true");
        if (!h.equals("true") && !h.equals("false")) {
            throw new CodecException("codec 'imagecodecs_lzf': header must be true or false, not " + h);
        }
        return new LzfCodec(h.equals("true"));
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        if (!header) {
            return decode(encoded, maxDecodedBytes, false);
        }
        try {
            return decode(encoded, maxDecodedBytes, true);
        } catch (CodecException withHeader) {
            try {
                byte[] bare = decode(encoded, maxDecodedBytes, false);
                if (bare.length == maxDecodedBytes) {
                    return bare;
                }
            } catch (CodecException bareToo) {
                withHeader.addSuppressed(bareToo);
            }
            throw withHeader;
        }
    }

    private static byte[] decode(byte[] encoded, int maxDecodedBytes, boolean header) throws CodecException {
        int in = 0;
        int size = maxDecodedBytes;
        if (header) {
            if (encoded.length < 4) {
                throw new CodecException(ID + ": data is truncated (no size header)");
            }
            long declared = CodecSupport.le32(encoded, 0) & 0xFFFFFFFFL;
            if (declared > maxDecodedBytes) {
                throw CodecSupport.tooLarge(ID, declared, maxDecodedBytes);
            }
            size = (int) declared;
            in = 4;
        }
        byte[] out = new byte[size];
        int o = 0;
        while (in < encoded.length) {
            int ctrl = encoded[in++] & 0xFF;
            if (ctrl < 32) {
                int n = ctrl + 1;
                if (in + n > encoded.length || o + n > out.length) {
                    throw corrupt(o + n > out.length);
                }
                System.arraycopy(encoded, in, out, o, n);
                in += n;
                o += n;
                continue;
            }
            int len = ctrl >>> 5;
            if (len == 7) {
                if (in >= encoded.length) {
                    throw corrupt(false);
                }
                len += encoded[in++] & 0xFF;
            }
            if (in >= encoded.length) {
                throw corrupt(false);
            }
            int ref = o - ((ctrl & 0x1F) << 8) - (encoded[in++] & 0xFF) - 1;
            len += 2;
            if (ref < 0) {
                throw new CodecException(ID + ": back reference before the start of the data");
            }
            if (o + len > out.length) {
                throw corrupt(true);
            }
            for (int k = 0; k < len; k++) {
                out[o++] = out[ref++];
            }
        }
        if (header && o != size) {
            throw new CodecException(ID + ": header declares " + size + " bytes but the data holds " + o);
        }
        return o == out.length ? out : java.util.Arrays.copyOf(out, o);
    }

    private static CodecException corrupt(boolean tooLong) {
        return new CodecException(
                tooLong ? ID + ": data decodes to more than the expected size" : ID + ": corrupt or truncated data");
    }
}
