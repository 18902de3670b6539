package io.nczarr.codec;

/**
 * Optional native decoders found on the system, used instead of the pure-Java ones where present:
 * libdeflate for {@code zlib}. Nothing native is required: without the library (or without JNA's
 * own native stub for the platform) every codec runs in Java, with the same results. Chosen once per
 * {@link CodecRegistry}, by the {@code NcZarrOptions} the caller builds.
 */
public final class NativeCodecs {

    private static final NativeCodecs NONE = new NativeCodecs(false, "native codecs not used");
    /** Binds on first question: a dataset without zlib chunks never loads JNA (~70 classes, 50-80 ms). */
    private static final NativeCodecs SYSTEM = new NativeCodecs(false, null);

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

    /**
     * Whatever of the native libraries the system has, looked for when a codec first asks (binding
     * happens once per process: JNA registers per class).
     */
    public static NativeCodecs load() {
        return SYSTEM;
    }

    /** Whether {@code zlib} is decoded by libdeflate. */
    public boolean hasDeflate() {
        return this == SYSTEM ? Loaded.INSTANCE.deflate : deflate;
    }

    /** For logs and {@code nczarr} diagnostics, e.g. "libdeflate (/lib/x86_64-linux-gnu/libdeflate.so.0)". */
    public String describe() {
        return this == SYSTEM ? Loaded.INSTANCE.description : description;
    }

    @Override
    public String toString() {
        return "NativeCodecs[" + describe() + "]";
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
