package io.nczarr.codec;

/**
 * Optional native decoders found on the system, used instead of the pure-Java ones where present:
 * libdeflate for {@code zlib}, c-blosc 1.x for {@code blosc}. Nothing native is required: without a
 * library (or without JNA's own native stub for the platform) every codec runs in Java, with the same
 * results. Chosen once per {@link CodecRegistry}, by the {@code NcZarrOptions} the caller builds.
 */
public final class NativeCodecs {

    private static final NativeCodecs NONE = new NativeCodecs();
    /** Binds each library on the first question about it: a dataset without zlib or blosc chunks never loads JNA. */
    private static final NativeCodecs SYSTEM = new NativeCodecs();

    private NativeCodecs() {}

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
        return this == SYSTEM && Deflate.BINDING.bound();
    }

    /** Whether {@code blosc} frames are decoded by c-blosc (those it can take safely; the rest in Java). */
    public boolean hasBlosc() {
        return this == SYSTEM && Blosc.BINDING.bound();
    }

    /** Bit {@code 1 << code} set for each Blosc inner compressor code the bound c-blosc decodes. */
    int bloscFormats() {
        return this == SYSTEM ? Blosc.BINDING.formats() : 0;
    }

    /** For logs and {@code nczarr} diagnostics, e.g. "libdeflate (/lib/x86_64-linux-gnu/libdeflate.so.0) for zlib; ...". */
    public String describe() {
        return this == SYSTEM
                ? Deflate.BINDING.description() + "; " + Blosc.BINDING.description()
                : "native codecs not used";
    }

    @Override
    public String toString() {
        return "NativeCodecs[" + describe() + "]";
    }

    private record Binding(boolean bound, String description, int formats) {}

    private static final class Deflate {
        static final Binding BINDING = bind();

        private static Binding bind() {
            try {
                return new Binding(true, "libdeflate (" + LibDeflate.load() + ") for zlib", 0);
            } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
                return new Binding(false, "libdeflate not found (" + e.getMessage() + "): zlib in Java", 0);
            }
        }
    }

    private static final class Blosc {
        static final Binding BINDING = bind();

        private static Binding bind() {
            try {
                String file = LibBlosc.load();
                String version = LibBlosc.blosc_get_version_string().getString(0);
                if (!NativeBloscCodec.supported(version)) {
                    return new Binding(
                            false, "c-blosc " + version + " (" + file + ") is older than 1.21: blosc in Java", 0);
                }
                String names = LibBlosc.blosc_list_compressors().getString(0);
                int formats = NativeBloscCodec.formats(names);
                return new Binding(true, "c-blosc " + version + " (" + file + ") for blosc with " + names, formats);
            } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
                return new Binding(false, "c-blosc not found (" + e.getMessage() + "): blosc in Java", 0);
            }
        }
    }
}
