package io.nczarr.codec;

import io.nczarr.error.CodecException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.zip.GZIPInputStream;

/** numcodecs {@code gzip}: one gzip member (RFC 1952); further members are decoded too, as Python's gzip does. */
final class GzipCodec implements BytesBytesCodec {

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        GZIPInputStream in;
        try {
            in = new GZIPInputStream(new ByteArrayInputStream(encoded), 8192);
        } catch (IOException e) {
            throw new CodecException("gzip: corrupt or truncated data (" + e.getMessage() + ")", e);
        }
        return CodecSupport.drain("gzip", in, maxDecodedBytes, (long) encoded.length * 4);
    }
}
