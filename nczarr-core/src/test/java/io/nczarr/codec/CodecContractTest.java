package io.nczarr.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.error.CodecException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The contract of every codec in {@link CodecRegistry#standard()}: one group of tests per id, so a
 * new codec is covered automatically and fails here until it has an entry in {@link ContractCases#CASES}.
 * Per id: it builds from default parameters and has the stage kind Zarr v3 gives it; a sample
 * (a numcodecs/HDF5 fixture, or data encoded here) decodes to the expected bytes; a bound one
 * byte too small is a CodecException, never a bigger array; empty and truncated input behave as
 * the format dictates ({@link Truncation}); {@code decodeInto} gives what {@code decode} gives;
 * one instance decodes concurrently with identical results.
 */
class CodecContractTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CodecRegistry REGISTRY = CodecRegistry.standard();

    /** What decoding a prefix of a valid encoding must do. */
    enum Truncation {
        /** A header, trailer, checksum or item count gives the size: every cut is a CodecException. */
        FRAMED,
        /**
         * Fixed-width elements, nothing else: a cut on an element boundary decodes to
         * proportionally fewer elements, any other cut is a CodecException.
         */
        ELEMENTWISE,
        /** A byte transform or the identity: the result is exactly as long as the input. */
        SAME_LENGTH,
        /** packbits: a header byte (padding bits) then 8 elements per byte. */
        PACKBITS,
        /** Known id without a decoder: decoding anything is a CodecException. */
        UNSUPPORTED
    }

    /**
     * One codec's entry: parameters that build it, its stage kind, how truncation shows, and the
     * sample it decodes ({@code null} for UNSUPPORTED).
     */
    record Case(String defaults, CodecKind kind, Truncation truncation, int encodedWidth, SampleSource sample) {}

    /** Where a sample comes from. */
    @FunctionalInterface
    interface SampleSource {
        Sample load() throws IOException;
    }

    /** Encoded bytes, the config and array dtype they were written with, and the expected decoding. */
    record Sample(JsonNode config, String arrayDtype, byte[] encoded, int decodedBytes, String decodedSha256) {}

    // ---- the contract --------------------------------------------------------------------------

    @TestFactory
    Stream<DynamicNode> everyStandardCodecKeepsTheContract() {
        return REGISTRY.ids().stream().map(id -> {
            Case c = ContractCases.CASES.get(id);
            if (c == null) {
                return dynamicTest(
                        id + " has a contract entry",
                        () -> fail("codec id '" + id + "' has no entry in ContractCases.CASES"));
            }
            return dynamicContainer(id, contract(id, c, REGISTRY));
        });
    }

    /** The native decoders the system has (libdeflate, c-blosc) keep the same contract as the Java ones they replace. */
    @TestFactory
    Stream<DynamicNode> nativeCodecsKeepTheContract() {
        NativeCodecs natives = NativeCodecs.load();
        CodecRegistry registry = CodecRegistry.standard(natives);
        List<String> ids = new ArrayList<>();
        if (natives.hasDeflate()) {
            ids.add("zlib");
        }
        if (natives.hasBlosc()) {
            ids.add("blosc");
        }
        return ids.stream()
                .map(id -> dynamicContainer("native " + id, contract(id, ContractCases.CASES.get(id), registry)));
    }

    @Test
    void everyEntryIsAStandardCodec() {
        Set<String> stale = new HashSet<>(ContractCases.CASES.keySet());
        stale.removeAll(REGISTRY.ids());
        assertEquals(Set.of(), stale, "entries for ids the registry does not have");
    }

    private static Stream<DynamicTest> contract(String id, Case c, CodecRegistry registry) {
        List<DynamicTest> tests = new ArrayList<>();
        tests.add(dynamicTest("builds from default parameters as a " + c.kind(), () -> {
            Codec codec = create(JSON.readTree(c.defaults()), "<f8", registry);
            assertEquals(c.kind(), CodecKind.of(codec));
        }));
        if (c.truncation() == Truncation.UNSUPPORTED) {
            tests.add(dynamicTest("decoding anything is a CodecException", () -> {
                Codec codec = create(JSON.readTree(c.defaults()), "<f8", registry);
                assertThrows(CodecException.class, () -> codec.decode(new byte[16], 1000));
                assertThrows(CodecException.class, () -> codec.decodeInto(new byte[16], new byte[1000], 1000));
                assertThrows(CodecException.class, () -> codec.decode(new byte[0], 1000));
            }));
            return tests.stream();
        }
        tests.add(dynamicTest("decodes its sample", () -> {
            Sample s = load(c);
            byte[] out = codecFor(s, registry).decode(s.encoded(), s.decodedBytes());
            assertEquals(s.decodedBytes(), out.length);
            assertEquals(s.decodedSha256(), TestSupport.sha256(out));
        }));
        tests.add(dynamicTest("honours the output bound", () -> {
            Sample s = load(c);
            Codec codec = codecFor(s, registry);
            int tooSmall = s.decodedBytes() - 1;
            assertThrows(CodecException.class, () -> codec.decode(s.encoded(), tooSmall));
            assertThrows(CodecException.class, () -> codec.decodeInto(s.encoded(), new byte[tooSmall], tooSmall));
            assertThrows(CodecException.class, () -> codec.decode(s.encoded(), 0));
        }));
        tests.add(dynamicTest("empty and truncated input: " + c.truncation(), () -> {
            Sample s = load(c);
            Codec codec = codecFor(s, registry);
            byte[] enc = s.encoded();
            for (int cut : new int[] {0, 1, 2, 3, 5, enc.length / 3, enc.length / 2, enc.length - 2, enc.length - 1}) {
                if (cut < 0 || cut >= enc.length) {
                    continue;
                }
                byte[] t = Arrays.copyOf(enc, cut);
                int expected = truncatedLength(c, s, cut);
                String what = id + " cut at " + cut + " of " + enc.length;
                if (expected < 0) {
                    assertThrows(CodecException.class, () -> codec.decode(t, s.decodedBytes()), what);
                } else {
                    assertEquals(expected, codec.decode(t, s.decodedBytes()).length, what);
                }
            }
        }));
        tests.add(dynamicTest("decodeInto gives what decode gives", () -> {
            Sample s = load(c);
            Codec codec = codecFor(s, registry);
            int n = s.decodedBytes();
            for (int extra : new int[] {0, 37}) {
                byte[] reused = new byte[n + extra];
                Arrays.fill(reused, (byte) 0x5a); // garbage from an earlier chunk
                byte[] r = codec.decodeInto(s.encoded(), reused, n);
                byte[] result = r == reused ? Arrays.copyOf(reused, n) : r;
                assertEquals(s.decodedSha256(), TestSupport.sha256(result), "out of " + (n + extra) + " bytes");
            }
        }));
        tests.add(dynamicTest("decodeInto of the first bytes of a reused input buffer gives what decode gives", () -> {
            Sample s = load(c);
            Codec codec = codecFor(s, registry);
            int n = s.decodedBytes();
            byte[] enc = s.encoded();
            byte[] input = Arrays.copyOf(enc, enc.length + 61);
            Arrays.fill(input, enc.length, input.length, (byte) 0x5a); // an earlier, longer chunk's tail
            byte[] reused = new byte[n + 3];
            byte[] r = codec.decodeInto(input, enc.length, reused, n);
            byte[] result = r == reused ? Arrays.copyOf(reused, n) : r;
            assertEquals(s.decodedSha256(), TestSupport.sha256(result));
        }));
        tests.add(dynamicTest("one instance decodes concurrently", () -> {
            Sample s = load(c);
            Codec codec = codecFor(s, registry);
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> fs = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    fs.add(pool.submit(() -> {
                        byte[] reused = new byte[s.decodedBytes()];
                        for (int k = 0; k < 25; k++) {
                            byte[] a = codec.decode(s.encoded(), s.decodedBytes());
                            assertEquals(s.decodedSha256(), TestSupport.sha256(a));
                            byte[] b = codec.decodeInto(s.encoded(), reused, s.decodedBytes());
                            assertEquals(s.decodedSha256(), TestSupport.sha256(b == reused ? reused.clone() : b));
                        }
                        return null;
                    }));
                }
                for (Future<?> f : fs) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
        }));
        return tests.stream();
    }

    /** What a prefix of {@code cut} bytes must decode to: its length, or -1 for a CodecException. */
    private static int truncatedLength(Case c, Sample s, int cut) {
        byte[] enc = s.encoded();
        switch (c.truncation()) {
            case SAME_LENGTH:
                return cut;
            case ELEMENTWISE:
                if (cut % c.encodedWidth() != 0) {
                    return -1;
                }
                int decodedWidth = s.decodedBytes() / (enc.length / c.encodedWidth());
                return cut / c.encodedWidth() * decodedWidth;
            case PACKBITS:
                int pad = enc[0] & 0xFF;
                if (cut == 0 || (cut == 1 && pad != 0)) {
                    return -1;
                }
                return (cut - 1) * 8 - pad;
            default:
                return -1; // FRAMED
        }
    }

    // ---- samples ---------------------------------------------------------------------------------

    private static Sample load(Case c) throws IOException {
        return c.sample().load();
    }

    private static Codec codecFor(Sample s) throws IOException {
        return codecFor(s, REGISTRY);
    }

    private static Codec codecFor(Sample s, CodecRegistry registry) throws IOException {
        return create(s.config(), s.arrayDtype(), registry);
    }

    private static Codec create(JsonNode config, String arrayDtype, CodecRegistry registry) throws IOException {
        return registry.create(new CodecConfig(config.get("id").asText(), config, arrayDtype));
    }

    /** A fixture of src/test/resources/codec-extra. */

    /** A numcodecs fixture of the shared corpus (the test is skipped without the corpus). */
    static Sample fixture(Path dir, String encoded) throws IOException {
        for (JsonNode c : JSON.readTree(dir.resolve("INDEX.json").toFile()).get("cases")) {
            if (c.get("encoded").asText().equals(encoded)) {
                return new Sample(
                        c.get("config"),
                        c.get("array_dtype").asText(),
                        Files.readAllBytes(dir.resolve(encoded)),
                        c.get("decoded_nbytes").asInt(),
                        c.get("decoded_sha256").asText());
            }
        }
        return Assumptions.abort("no fixture " + encoded + " in " + dir);
    }

    /** numcodecs crc32c layout: the data, then its CRC-32C little-endian (location "end"). */
    static Sample crc32cSample() throws IOException {
        byte[] data = new byte[1001];
        new Random(32).nextBytes(data);
        CRC32C crc = new CRC32C();
        crc.update(data);
        byte[] enc = Arrays.copyOf(data, data.length + 4);
        CodecSupport.putLe32(enc, data.length, (int) crc.getValue());
        return new Sample(JSON.readTree("{\"id\":\"crc32c\"}"), "|u1", enc, data.length, TestSupport.sha256(data));
    }

    @Test
    void crc32cSampleIsWhatNumcodecsWrites() throws IOException {
        // numcodecs CRC32C: checksum after the data; flipping a data byte must be caught
        Sample s = crc32cSample();
        byte[] bad = s.encoded().clone();
        bad[7] ^= 1;
        Codec c = codecFor(s);
        assertArrayEquals(Arrays.copyOf(s.encoded(), s.decodedBytes()), c.decode(s.encoded(), s.decodedBytes()));
        assertThrows(CodecException.class, () -> c.decode(bad, s.decodedBytes()));
        assertTrue(s.decodedBytes() > 0);
    }
}
