package io.nczarr.cdm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.luben.zstd.ZstdOutputStream;
import io.nczarr.codec.CodecConfig;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.VarModel;
import io.nczarr.read.ZarrVariableReader;
import io.nczarr.testkit.Corpus;
import io.nczarr.url.DatasetUrl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * The real chunks the chunk fuzz test corrupts, one {@link Target} per codec configuration: every
 * stored variable of the corpus datasets (its first and last chunk), one dataset per distinct
 * configuration of the numcodecs fixtures (shared/corpus/codecs), and the checksum codecs the
 * corpus has no chunks for (crc32, adler32, crc32c, fletcher32, zstd with a content checksum),
 * written here over real data.
 */
final class ChunkTargets {
    private ChunkTargets() {}

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One chunk of one variable in a dataset.
     *
     * @param variableKey the variable's store prefix ({@code "g/v"})
     * @param chunkKey the chunk's key
     * @param checksummed whether a checksum covers the whole chunk, so that corrupt bytes may never read as data
     * @param codecs the codec chain, for messages
     */
    record Target(
            String name,
            DatasetUrl.Format format,
            boolean xarray,
            NavigableMap<String, byte[]> objects,
            String variableKey,
            String chunkKey,
            boolean checksummed,
            String codecs) {

        @Override
        public String toString() {
            return name;
        }
    }

    static List<Target> all() {
        List<Target> out = new ArrayList<>();
        for (FuzzSeeds.Seed s : FuzzSeeds.all()) {
            out.addAll(ofSeed(s));
        }
        out.addAll(codecFixtures());
        out.addAll(checksummed());
        return out;
    }

    // ---- corpus datasets ----------------------------------------------------------------------

    private static List<Target> ofSeed(FuzzSeeds.Seed seed) {
        List<Target> out = new ArrayList<>();
        try (NetcdfFile nc =
                FuzzProbe.open("memory:seed/" + seed.name(), seed.objects(), seed.format(), seed.xarray())) {
            for (Variable v : nc.getVariables()) {
                VarModel vm = ((ZarrVariableReader) v.getSPobject()).variable();
                List<String> chunks = chunkKeys(seed.objects(), vm.key());
                Set<String> picked = new LinkedHashSet<>();
                if (!chunks.isEmpty()) {
                    picked.add(chunks.get(0));
                    picked.add(chunks.get(chunks.size() - 1));
                }
                for (String c : picked) {
                    out.add(new Target(
                            seed.name() + ":" + c,
                            seed.format(),
                            seed.xarray(),
                            seed.objects(),
                            vm.key(),
                            c,
                            checksummed(vm.array(), seed.objects().get(c)),
                            chain(vm.array())));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("seed " + seed.name() + " does not open", e);
        }
        return out;
    }

    /** The stored chunks of a variable: keys below it made of indexes and separators. */
    private static List<String> chunkKeys(NavigableMap<String, byte[]> objects, String variableKey) {
        List<String> out = new ArrayList<>();
        String prefix = variableKey + "/";
        for (String k : objects.subMap(prefix, prefix + Character.MAX_VALUE).keySet()) {
            if (k.substring(prefix.length()).matches("\\d+([./]\\d+)*")) {
                out.add(k);
            }
        }
        return out;
    }

    /**
     * Whether a corrupt chunk can never decode silently: some stage of the chain verifies a checksum
     * over everything it outputs. gzip (CRC-32), zlib (Adler-32), bz2 (block and stream CRCs), xz
     * (lzma format 1 with a check), the checksum codecs, and zstd frames that carry a content checksum.
     * Not blosc (its header and blocks carry none), lz4 (a bare block), nor uncompressed chunks.
     */
    static boolean checksummed(ArrayMeta a, byte[] chunk) {
        List<CodecConfig> chain = new ArrayList<>(a.filters());
        if (a.compressor() != null) {
            chain.add(a.compressor());
        }
        for (CodecConfig c : chain) {
            switch (c.id()) {
                case "gzip", "zlib", "bz2", "fletcher32", "crc32", "adler32", "crc32c":
                    return true;
                case "lzma":
                    if (c.params().path("format").asInt(1) == 1
                            && c.params().path("check").asInt(-1) != 0) {
                        return true;
                    }
                    break;
                case "zstd":
                    if (c == a.compressor() && zstdChecksumFlag(chunk)) {
                        return true;
                    }
                    break;
                default:
                    break;
            }
        }
        return false;
    }

    /** A zstd frame whose header says a content checksum follows the data. */
    private static boolean zstdChecksumFlag(byte[] b) {
        return b.length > 4
                && (b[0] & 0xFF) == 0x28
                && (b[1] & 0xFF) == 0xB5
                && (b[2] & 0xFF) == 0x2F
                && (b[3] & 0xFF) == 0xFD
                && (b[4] & 0x04) != 0;
    }

    private static String chain(ArrayMeta a) {
        List<String> ids = new ArrayList<>();
        a.filters().forEach(f -> ids.add(f.id()));
        ids.add(a.compressor() == null ? "raw" : a.compressor().id());
        return String.join("+", ids);
    }

    // ---- numcodecs fixtures -------------------------------------------------------------------

    private static final Set<String> COMPRESSORS = Set.of("zlib", "gzip", "bz2", "lzma", "zstd", "lz4", "blosc");

    /** One single-chunk dataset per distinct codec configuration of the fixtures. */
    private static List<Target> codecFixtures() {
        Path dir = Corpus.corpusDir().resolve("codecs");
        List<Target> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        try {
            JsonNode index = JSON.readTree(dir.resolve("INDEX.json").toFile());
            for (JsonNode c : index.get("cases")) {
                JsonNode config = c.get("config");
                if (!seen.add(config.toString())) {
                    continue;
                }
                long n = 1;
                for (JsonNode d : c.get("array_shape")) {
                    n *= d.asLong();
                }
                String id = config.get("id").asText();
                boolean compressor = COMPRESSORS.contains(id);
                String zarray = "{\"zarr_format\": 2, \"shape\": [" + n + "], \"chunks\": [" + n + "], \"dtype\": "
                        + JSON.writeValueAsString(c.get("array_dtype").asText()) + ", \"fill_value\": null,"
                        + " \"order\": \"C\", \"compressor\": " + (compressor ? config : "null") + ", \"filters\": "
                        + (compressor ? "null" : "[" + config + "]") + "}";
                byte[] chunk = Files.readAllBytes(dir.resolve(c.get("encoded").asText()));
                out.add(single("codecs:" + c.get("config_file").asText(), zarray, chunk));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** A dataset holding one variable {@code v} of one chunk {@code v/0}. */
    private static Target single(String name, String zarray, byte[] chunk) {
        NavigableMap<String, byte[]> objects = new TreeMap<>();
        objects.put(".zgroup", "{\"zarr_format\": 2}".getBytes(StandardCharsets.UTF_8));
        objects.put("v/.zarray", zarray.getBytes(StandardCharsets.UTF_8));
        objects.put("v/0", chunk);
        ArrayMeta a;
        try {
            a = ArrayMeta.parse(name, "v/.zarray", JSON.readTree(zarray));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Target(name, DatasetUrl.Format.ZARR, false, objects, "v", "v/0", checksummed(a, chunk), chain(a));
    }

    // ---- checksum codecs ----------------------------------------------------------------------

    private static final int VALUES = 500;

    /** The checksum codecs over 500 int32 values, alone and behind zlib and zstd. */
    private static List<Target> checksummed() {
        byte[] raw = values();
        List<Target> out = new ArrayList<>();
        out.add(checksumTarget("crc32", withChecksum(raw, new CRC32(), false)));
        out.add(checksumTarget("adler32", withChecksum(raw, new Adler32(), false)));
        out.add(checksumTarget("crc32c", withChecksum(raw, new CRC32C(), true)));
        out.add(checksumTarget("fletcher32", fletcher32(raw)));
        // netCDF's usual order: the checksum filter first, then the compressor
        out.add(single(
                "synthetic:fletcher32+zlib",
                zarray("[{\"id\": \"fletcher32\"}]", "{\"id\": \"zlib\", \"level\": 5}"),
                zlib(fletcher32(raw))));
        out.add(single(
                "synthetic:zstd-with-content-checksum",
                zarray("null", "{\"id\": \"zstd\", \"level\": 3}"),
                zstdWithChecksum(raw)));
        return out;
    }

    private static Target checksumTarget(String id, byte[] chunk) {
        return single("synthetic:" + id, zarray("[{\"id\": \"" + id + "\"}]", "null"), chunk);
    }

    private static String zarray(String filters, String compressor) {
        return "{\"zarr_format\": 2, \"shape\": [" + VALUES + "], \"chunks\": [" + VALUES + "], \"dtype\": \"<i4\","
                + " \"fill_value\": 0, \"order\": \"C\", \"compressor\": " + compressor + ", \"filters\": " + filters
                + "}";
    }

    /** Values with some structure (so that compressors have work) and some noise. */
    private static byte[] values() {
        ByteBuffer b = ByteBuffer.allocate(VALUES * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < VALUES; i++) {
            b.putInt(i * 7919 % 1000 + (i / 50) * 100_000);
        }
        return b.array();
    }

    /** numcodecs crc32/adler32 (checksum first) and crc32c (checksum last), 4 bytes little-endian. */
    private static byte[] withChecksum(byte[] data, Checksum c, boolean atEnd) {
        c.update(data, 0, data.length);
        ByteBuffer b = ByteBuffer.allocate(data.length + 4).order(ByteOrder.LITTLE_ENDIAN);
        if (!atEnd) {
            b.putInt((int) c.getValue());
        }
        b.put(data);
        if (atEnd) {
            b.putInt((int) c.getValue());
        }
        return b.array();
    }

    /** HDF5's fletcher32 (16-bit big-endian words, 360-word blocks), appended little-endian. */
    private static byte[] fletcher32(byte[] data) {
        long sum1 = 0;
        long sum2 = 0;
        int words = data.length / 2;
        int p = 0;
        while (words > 0) {
            int t = Math.min(words, 360);
            words -= t;
            for (int k = 0; k < t; k++) {
                sum1 += ((data[p] & 0xFF) << 8) | (data[p + 1] & 0xFF);
                p += 2;
                sum2 += sum1;
            }
            sum1 = (sum1 & 0xFFFF) + (sum1 >>> 16);
            sum2 = (sum2 & 0xFFFF) + (sum2 >>> 16);
        }
        if ((data.length & 1) != 0) {
            sum1 += (data[p] & 0xFF) << 8;
            sum2 += sum1;
            sum1 = (sum1 & 0xFFFF) + (sum1 >>> 16);
            sum2 = (sum2 & 0xFFFF) + (sum2 >>> 16);
        }
        sum1 = (sum1 & 0xFFFF) + (sum1 >>> 16);
        sum2 = (sum2 & 0xFFFF) + (sum2 >>> 16);
        ByteBuffer b = ByteBuffer.allocate(data.length + 4).order(ByteOrder.LITTLE_ENDIAN);
        return b.put(data).putInt((int) ((sum2 << 16) | sum1)).array();
    }

    private static byte[] zlib(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DeflaterOutputStream z = new DeflaterOutputStream(out, new Deflater(5))) {
            z.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static byte[] zstdWithChecksum(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZstdOutputStream z = new ZstdOutputStream(out, 3)) {
            z.setChecksum(true);
            z.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
