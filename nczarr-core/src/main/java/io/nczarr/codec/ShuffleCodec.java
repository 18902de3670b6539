package io.nczarr.codec;

import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;

/**
 * numcodecs {@code shuffle} and netcdf-c's HDF5 shuffle filter (same id): a byte transpose by
 * {@code elementsize} (netcdf-c writes it as a string, e.g. {@code "8"}). Without
 * {@code elementsize} the array dtype's item size is used; {@code 0} and {@code 1} shuffle nothing,
 * as in numcodecs (netcdf-c 4.10's {@code 0} means the item size: the NCZarr reader rewrites it,
 * see {@code ArrayMeta.withNetcdfCFilters}). A parameter other than {@code elementsize} is an
 * error: a guess could return garbage silently. Trailing bytes that do not fill an element are
 * left in place, as HDF5 does (numcodecs never produces them).
 */
final class ShuffleCodec implements BytesBytesCodec {

    private final int elementsize;

    ShuffleCodec(int elementsize) {
        this.elementsize = elementsize;
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        if (encoded.length > maxDecodedBytes) {
            throw CodecSupport.tooLarge("shuffle", encoded.length, maxDecodedBytes);
        }
        if (elementsize <= 1 || encoded.length < elementsize) {
            return encoded.clone();
        }
        byte[] out = new byte[encoded.length];
        ByteUnshuffle.unshuffle(elementsize, encoded.length, encoded, 0, out, 0);
        return out;
    }

    /** Without {@code elementsize}, the array dtype's item size (numcodecs' default of 4 if it has none). */
    static ShuffleCodec create(CodecConfig config) throws CodecException {
        config.requireOnly("elementsize");
        NumpyDtype d = NumpyDtype.parseOrNull(config.arrayDtype());
        int def = d != null && d.itemsize() > 0 ? d.itemsize() : 4;
        int es = config.intParam("elementsize", def);
        if (es < 0) {
            throw new CodecException("codec 'shuffle': negative elementsize " + es);
        }
        return new ShuffleCodec(es);
    }

    @Override
    public long maxEncodedBytes(long decodedBytes) {
        return decodedBytes;
    }
}
