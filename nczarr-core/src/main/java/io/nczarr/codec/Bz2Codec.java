package io.nczarr.codec;

import io.nczarr.error.CodecException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;

/** numcodecs {@code bz2} (and netcdf-c's bzip2 filter, same id): a bzip2 stream, via commons-compress. */
final class Bz2Codec implements BytesBytesCodec {

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        BZip2CompressorInputStream in;
        try {
            // decompressConcatenated: Python's bz2.decompress accepts concatenated streams too
            in = new BZip2CompressorInputStream(new ByteArrayInputStream(encoded), true);
        } catch (IOException | RuntimeException e) {
            throw new CodecException("bz2: corrupt or truncated data (" + e.getMessage() + ")", e);
        }
        return CodecSupport.drain("bz2", in, maxDecodedBytes, (long) encoded.length * 4);
    }
}
