package io.nczarr.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.nczarr.codec.CodecConfig;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.codec.NativeCodecs;
import io.nczarr.error.NcZarrException;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3ClientFactory;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.store.MemoryLimits;
import io.nczarr.store.ReadPool;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NcZarrOptionsTest {

    private static NcZarrOptions.Builder with(Map<String, String> properties) {
        return NcZarrOptions.builder(AwsEnvironment.of(properties, Map.of()));
    }

    @Test
    void settingsComeFromTheProperties() throws NcZarrException {
        try (NcZarrOptions o = with(Map.of(
                        NcZarrOptions.DECODE_THREADS,
                        "3",
                        NcZarrOptions.REQUEST_THREADS,
                        "7",
                        NcZarrOptions.MAX_OBJECT_BYTES,
                        "4096"))
                .build()) {
            assertEquals(3, o.readPool().decodeThreads());
            assertEquals(7, o.readPool().requestThreads());
            assertEquals(4096, o.maxObjectBytes());
        }
    }

    @Test
    void defaultsAreBounded() throws NcZarrException {
        try (NcZarrOptions o = with(Map.of()).build()) {
            assertEquals(
                    Runtime.getRuntime().availableProcessors(), o.readPool().decodeThreads());
            assertEquals(NcZarrOptions.DEFAULT_REQUEST_THREADS, o.readPool().requestThreads());
            assertTrue(o.maxObjectBytes() > 0);
            assertEquals(CodecRegistry.standard().ids(), o.codecs().ids());
        }
    }

    @Test
    void symlinksOutOfTheDatasetAreRefusedUnlessAllowed() throws NcZarrException {
        try (NcZarrOptions o = with(Map.of()).build()) {
            assertFalse(o.allowSymlinksOut());
            assertFalse(o.storeResources().allowSymlinksOut());
        }
        try (NcZarrOptions o =
                with(Map.of(NcZarrOptions.ALLOW_SYMLINKS_OUT, "TRUE")).build()) {
            assertTrue(o.allowSymlinksOut());
            assertTrue(o.storeResources().allowSymlinksOut(), "carried to the stores");
        }
        try (NcZarrOptions o = with(Map.of(NcZarrOptions.ALLOW_SYMLINKS_OUT, "true"))
                .allowSymlinksOut(false)
                .build()) {
            assertFalse(o.allowSymlinksOut(), "the builder overrides the property");
        }
        NcZarrException e = assertThrows(
                NcZarrException.class,
                () -> with(Map.of(NcZarrOptions.ALLOW_SYMLINKS_OUT, "yes")).build());
        assertTrue(e.getMessage().contains(NcZarrOptions.ALLOW_SYMLINKS_OUT), e.getMessage());
    }

    @Test
    void badPropertiesNameTheProperty() {
        NcZarrException e = assertThrows(
                NcZarrException.class,
                () -> with(Map.of(NcZarrOptions.DECODE_THREADS, "lots")).build());
        assertTrue(e.getMessage().contains(NcZarrOptions.DECODE_THREADS), e.getMessage());
        e = assertThrows(
                NcZarrException.class,
                () -> with(Map.of(NcZarrOptions.REQUEST_THREADS, "0")).build());
        assertTrue(e.getMessage().contains(NcZarrOptions.REQUEST_THREADS), e.getMessage());
        assertThrows(
                NcZarrException.class,
                () -> with(Map.of()).decodeThreads(100_000).build());
    }

    @Test
    void closeStopsOnlyWhatTheOptionsMade() throws NcZarrException {
        ReadPool given = new ReadPool(1, 1, "given");
        S3ClientPool clients = new S3ClientPool(S3ClientFactory::create);
        NcZarrOptions o = with(Map.of()).readPool(given).s3Clients(clients).build();
        assertSame(given, o.readPool());
        assertSame(clients, o.s3Clients());
        o.close();
        assertFalse(given.isClosed(), "given resources stay the caller's");
        given.close();

        NcZarrOptions own = with(Map.of()).build();
        ReadPool made = own.readPool();
        own.close();
        assertTrue(made.isClosed());
        assertTrue(own.isClosed());
        own.close();
    }

    @Test
    void theSharedDefaultCanBeClosedAndComesBack() {
        NcZarrOptions first = NcZarrOptions.shared();
        assertSame(first, NcZarrOptions.shared());
        NcZarrOptions.closeShared();
        assertTrue(first.isClosed());
        NcZarrOptions second = NcZarrOptions.shared();
        assertNotSame(first, second);
        assertFalse(second.isClosed());
    }

    @Test
    void theLimitsComeFromTheirPropertiesWithBinarySuffixes() throws NcZarrException {
        try (NcZarrOptions o = with(Map.of(
                        NcZarrOptions.MAX_OBJECT_BYTES, "3m",
                        NcZarrOptions.MAX_CHUNK_BYTES, "2M",
                        NcZarrOptions.MAX_METADATA_BYTES, "512k",
                        NcZarrOptions.MAX_READ_BYTES, "3g"))
                .build()) {
            assertEquals(new MemoryLimits(3L << 20, 2L << 20, 512L << 10, 3L << 30), o.limits());
            assertEquals(3L << 20, o.maxObjectBytes());
            assertEquals(o.limits(), o.storeResources().limits());
        }
    }

    @Test
    void theLimitsDefaultToTheHeapDefaults() throws NcZarrException {
        try (NcZarrOptions o = with(Map.of()).build()) {
            assertEquals(MemoryLimits.defaults(), o.limits());
        }
    }

    @Test
    void theOldObjectPropertyStillWorksAndTheNewOneWins() throws NcZarrException {
        try (NcZarrOptions o =
                with(Map.of(NcZarrOptions.OLD_MAX_OBJECT_BYTES, "4096")).build()) {
            assertEquals(4096, o.maxObjectBytes());
        }
        try (NcZarrOptions o = with(Map.of(
                        NcZarrOptions.OLD_MAX_OBJECT_BYTES, "4096", NcZarrOptions.MAX_OBJECT_BYTES, "8192"))
                .build()) {
            assertEquals(8192, o.maxObjectBytes());
        }
        NcZarrException e = assertThrows(
                NcZarrException.class,
                () -> with(Map.of(NcZarrOptions.OLD_MAX_OBJECT_BYTES, "lots")).build());
        assertTrue(e.getMessage().contains(NcZarrOptions.OLD_MAX_OBJECT_BYTES), e.getMessage());
    }

    @Test
    void badLimitsNameTheirProperty() {
        for (String bad : new String[] {"0", "-5", "lots", "12x", "9999999t"}) {
            NcZarrException e = assertThrows(
                    NcZarrException.class,
                    () -> with(Map.of(NcZarrOptions.MAX_CHUNK_BYTES, bad)).build(),
                    bad);
            assertTrue(e.getMessage().contains(NcZarrOptions.MAX_CHUNK_BYTES), e.getMessage());
        }
        // one array cannot hold 2 GiB; a read result can
        assertThrows(
                NcZarrException.class,
                () -> with(Map.of(NcZarrOptions.MAX_OBJECT_BYTES, "2g")).build());
        assertThrows(
                NcZarrException.class, () -> with(Map.of()).maxObjectBytes(0).build());
    }

    @Test
    void givenLimitsWinOverTheProperties() throws NcZarrException {
        MemoryLimits given = new MemoryLimits(10, 20, 5, 40);
        try (NcZarrOptions o =
                with(Map.of(NcZarrOptions.MAX_CHUNK_BYTES, "1m")).limits(given).build()) {
            assertEquals(given, o.limits());
        }
        try (NcZarrOptions o = with(Map.of()).limits(given).maxObjectBytes(7).build()) {
            assertEquals(new MemoryLimits(7, 20, 5, 40), o.limits());
        }
    }

    @Test
    void nativeCodecsPropertyTurnsEveryNativeDecoderOff() throws Exception {
        try (NcZarrOptions o =
                with(Map.of(NcZarrOptions.NATIVE_CODECS, "false")).build()) {
            assertEquals("ZlibCodec", codecClass(o, "zlib"));
            assertEquals("BloscCodec", codecClass(o, "blosc"));
        }
        try (NcZarrOptions o = with(Map.of()).build()) {
            NativeCodecs n = NativeCodecs.load();
            assertEquals(n.hasDeflate() ? "NativeZlibCodec" : "ZlibCodec", codecClass(o, "zlib"));
            assertEquals(n.hasBlosc() ? "NativeBloscCodec" : "BloscCodec", codecClass(o, "blosc"));
        }
    }

    private static String codecClass(NcZarrOptions o, String id) throws Exception {
        return o.codecs()
                .create(new CodecConfig(
                        id, JsonNodeFactory.instance.objectNode().put("id", id), "<f4"))
                .getClass()
                .getSimpleName();
    }
}
