package io.nczarr.codec;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * The system's c-blosc 1.x (Debian {@code libblosc1}) through JNA direct mapping. Its decompressor takes
 * no source length (it trusts the frame header's compressed size), so {@link NativeBloscCodec} hands it
 * only frames whose whole layout was checked in Java first.
 */
final class LibBlosc {
    private LibBlosc() {}

    /** Binds the natives; an {@link UnsatisfiedLinkError} when the library is not there. */
    static String load() {
        if (Native.LONG_SIZE != 8) {
            throw new UnsatisfiedLinkError("libblosc is bound for 64-bit size_t only");
        }
        NativeLibrary lib = loadLibrary();
        Native.register(LibBlosc.class, lib);
        return lib.getFile() == null ? lib.getName() : lib.getFile().toString();
    }

    private static NativeLibrary loadLibrary() {
        try {
            return NativeLibrary.getInstance("blosc");
        } catch (UnsatisfiedLinkError e) {
            // the runtime package (libblosc1) ships only the versioned name, not the -dev symlink
            return NativeLibrary.getInstance("libblosc.so.1");
        }
    }

    static native Pointer blosc_get_version_string();

    /** Comma-separated names of the inner compressors built in, e.g. "blosclz,lz4,lz4hc,snappy,zlib,zstd". */
    static native Pointer blosc_list_compressors();

    /** 0 when {@code cbytes} matches the header and the decoded size is within Blosc's limit; nbytes[0] gets it. */
    static native int blosc_cbuffer_validate(Pointer cbuffer, long cbytes, long[] nbytes);

    /** Decoded size, or a negative code; {@code numinternalthreads} 1: we decode chunks in parallel ourselves. */
    static native int blosc_decompress_ctx(Pointer src, Pointer dest, long destsize, int numinternalthreads);
}
