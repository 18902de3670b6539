package io.nczarr.codec;

/**
 * Optional native decoders found on the system, used instead of the pure-Java ones where present:
 * libdeflate for {@code zlib}. Nothing native is required: without the library (or without JNA's
 * own native stub for the platform) every codec runs in Java, with the same results. Chosen once per
 * {@link CodecRegistry}, by the {@code NcZarrOptions} the caller builds.
 */
public final class NativeCodecs {

    private static final NativeCodecs NONE = new NativeCodecs(false, "native codecs not used");

    private final boolean deflate;
    private final String description;

    private NativeCodecs(boolean deflate, String description) {
        this.deflate = deflate;
        this.description = description;
    }

    /** Pure Java only. */
    public static NativeCodecs none() {
        return NONE;
    }

    /** Whatever of the native libraries loads; binding happens once per process (JNA registers per class). */
    public static NativeCodecs load() {
        return Loaded.INSTANCE;
    }

    /** Whether {@code zlib} is decoded by libdeflate. */
    public boolean hasDeflate() {
        return deflate;
    }

    /** For logs and {@code nczarr} diagnostics, e.g. "libdeflate (/lib/x86_64-linux-gnu/libdeflate.so.0)". */
    public String describe() {
        return description;
    }

    @Override
    public String toString() {
        return "NativeCodecs[" + description + "]";
    }

    private static final class Loaded {
        static final NativeCodecs INSTANCE = bind();

        private static NativeCodecs bind() {
            try {
                return new NativeCodecs(true, "libdeflate (" + LibDeflate.load() + ") for zlib");
            } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
                return new NativeCodecs(false, "libdeflate not found (" + e.getMessage() + "): zlib in Java");
            }
        }
    }
}
