package io.nczarr.codec;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * The system's libdeflate (Debian {@code libdeflate0}) through JNA direct mapping: a zlib decoder
 * 2-3 times as fast as the JDK's {@code Inflater}, which wraps the system zlib. Only its
 * whole-buffer API is used: the input and the output are both bounded by the arrays passed, so a
 * hostile stream can neither read nor write past them.
 */
final class LibDeflate {
    private LibDeflate() {}

    /** {@code enum libdeflate_result}. */
    static final int SUCCESS = 0;

    static final int BAD_DATA = 1;
    static final int INSUFFICIENT_SPACE = 3;

    /** Binds the natives; an {@link UnsatisfiedLinkError} when the library is not there. */
    static String load() {
        if (Native.LONG_SIZE != 8) {
            throw new UnsatisfiedLinkError("libdeflate is bound for 64-bit size_t only");
        }
        NativeLibrary lib = NativeLibrary.getInstance("deflate");
        Native.register(LibDeflate.class, lib);
        return lib.getFile() == null ? lib.getName() : lib.getFile().toString();
    }

    static native Pointer libdeflate_alloc_decompressor();

    static native void libdeflate_free_decompressor(Pointer decompressor);

    /** {@code size_t} arguments are Java longs (LP64 only); {@code actualOut} receives the decoded size. */
    static native int libdeflate_zlib_decompress(
            Pointer decompressor, Pointer in, long inBytes, Pointer out, long outAvailable, long[] actualOut);
}
