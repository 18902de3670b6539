package io.nczarr.codec;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import io.nczarr.error.CodecException;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/** numcodecs {@code zstd} (and netcdf-c's zstandard filter): one or more zstd frames, via zstd-jni. */
final class ZstdCodec implements BytesBytesCodec {

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        try {
            return decode0(encoded, maxDecodedBytes);
        } catch (LinkageError e) {
            throw new CodecException("zstd: zstd-jni native library is not available (" + e + ")", e);
        }
    }

    @Override
    public byte[] decodeInto(byte[] encoded, byte[] out, int len) throws CodecException {
        return decodeInto(encoded, 0, encoded.length, out, len);
    }

    /**
     * {@link #decodeInto(byte[], byte[], int)} of {@code encoded[off, off + n)}, read in place (an inner chunk
     * inside the bytes of its shard).
     */
    byte[] decodeInto(byte[] encoded, int off, int n, byte[] out, int len) throws CodecException {
        long declared;
        try {
            declared = n < 4 ? -1 : Zstd.getFrameContentSize(encoded, off, n);
        } catch (RuntimeException | LinkageError e) {
            declared = -1;
        }
        if (declared != len) {
            return decode(part(encoded, off, n), len);
        }
        long r;
        try {
            r = ZstdContexts.decompress(out, 0, len, encoded, off, n);
        } catch (ZstdException e) {
            // e.g. more frames follow: the general path sorts it out, bounded by len
            return decode(part(encoded, off, n), len);
        } catch (LinkageError e) {
            throw new CodecException("zstd: zstd-jni native library is not available (" + e + ")", e);
        }
        if (Zstd.isError(r)) {
            throw new CodecException("zstd: corrupt or truncated data (" + Zstd.getErrorName(r) + ")");
        }
        if (r != declared) {
            throw new CodecException("zstd: frame declares " + declared + " bytes but holds " + r);
        }
        return out;
    }

    private static byte[] part(byte[] b, int off, int n) {
        return off == 0 && n == b.length ? b : java.util.Arrays.copyOfRange(b, off, off + n);
    }

    private byte[] decode0(byte[] encoded, int maxDecodedBytes) throws CodecException {
        if (encoded.length < 4) {
            throw new CodecException("zstd: compressed data is truncated (" + encoded.length + " bytes)");
        }
        long declared;
        try {
            declared = Zstd.getFrameContentSize(encoded, 0, encoded.length);
        } catch (RuntimeException e) {
            declared = -1;
        }
        if (declared > maxDecodedBytes) {
            throw CodecSupport.tooLarge("zstd", declared, maxDecodedBytes);
        }
        if (declared >= 0) {
            // One-shot into an exactly sized array (ZSTD_decompress also walks further frames and
            // fails if they do not fit).
            byte[] out = new byte[(int) declared];
            long r;
            try {
                r = ZstdContexts.decompress(out, out.length, encoded);
            } catch (ZstdException e) {
                if (e.getErrorCode() == Zstd.errDstSizeTooSmall()) {
                    // more frames follow: fall back to streaming with the hard limit
                    return stream(encoded, maxDecodedBytes, declared);
                }
                throw new CodecException("zstd: corrupt or truncated data (" + e.getMessage() + ")", e);
            }
            if (Zstd.isError(r)) {
                throw new CodecException("zstd: corrupt or truncated data (" + Zstd.getErrorName(r) + ")");
            }
            if (r != declared) {
                throw new CodecException("zstd: frame declares " + declared + " bytes but holds " + r);
            }
            return out;
        }
        return stream(encoded, maxDecodedBytes, -1);
    }

    private static byte[] stream(byte[] encoded, int limit, long hint) throws CodecException {
        ZstdInputStreamNoFinalizer in;
        try {
            in = new ZstdInputStreamNoFinalizer(new ByteArrayInputStream(encoded));
        } catch (IOException | RuntimeException e) {
            throw new CodecException("zstd: " + e.getMessage(), e);
        }
        return CodecSupport.drain("zstd", in, limit, hint);
    }
}
