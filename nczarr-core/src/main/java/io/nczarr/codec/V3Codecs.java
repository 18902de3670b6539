package io.nczarr.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the {@link CodecPipeline} of a Zarr v3 array from its {@code codecs} list. The core
 * codecs that need the chunk's shape ({@code bytes}, {@code transpose}, {@code sharding_indexed})
 * are made here; every other name goes to the registry, {@code numcodecs.<id>} as {@code <id>}.
 * {@code vlen-utf8} stands as the raw layout: the chunk reader parses the items itself.
 */
public final class V3Codecs {
    private V3Codecs() {}

    /**
     * @param codecs the {@code codecs} list (encode order)
     * @param chunkShape the chunk (or shard) shape
     * @param stored the data type the chain encodes (little endian; {@code <f2} for float16, the raw bits
     *     {@code <u2} for bfloat16)
     * @param decoded the dtype chunks decode to ({@code <f4} for float16 and bfloat16, else {@code stored})
     * @param fill the {@code fill_value} (for empty inner chunks of shards)
     * @param registry creates the codecs of other names
     * @param cap bound of stages whose size is not known in advance
     */
    public static CodecPipeline pipeline(
            JsonNode codecs,
            int[] chunkShape,
            NumpyDtype stored,
            NumpyDtype decoded,
            JsonNode fill,
            V2Pipeline.CodecSource registry,
            int cap)
            throws IOException {
        Builder b = new Builder(registry, fill, cap);
        List<Codec> chain = new ArrayList<>();
        if (stored.kind() == 'u' && stored.itemsize() == 2 && decoded.kind() == 'f') {
            // bfloat16, stored as its raw 16 bits, widens to float
            chain.add(BFloat16Codec.INSTANCE);
        } else if (!stored.equals(decoded)) {
            // float16 widens to float: an array->array stage in front of the stored chain
            chain.add(new AsTypeCodec("float16", new Elements(stored), new Elements(decoded)));
        }
        chain.addAll(b.chain(codecs, chunkShape, stored));
        return CodecPipeline.of(chain, new ChunkSpec(elements(chunkShape), decoded), cap);
    }

    static long elements(int[] shape) {
        long n = 1;
        for (int s : shape) {
            n *= s;
        }
        return n;
    }

    /** Walks a codec list, tracking the array shape and dtype each codec sees. */
    private static final class Builder {
        private final V2Pipeline.CodecSource registry;
        private final JsonNode fill;
        private final int cap;

        Builder(V2Pipeline.CodecSource registry, JsonNode fill, int cap) {
            this.registry = registry;
            this.fill = fill;
            this.cap = cap;
        }

        List<Codec> chain(JsonNode codecs, int[] shape, NumpyDtype dtype) throws IOException {
            if (codecs == null || !codecs.isArray()) {
                throw new CodecException("codecs: not a list");
            }
            List<Codec> out = new ArrayList<>();
            for (JsonNode entry : codecs) {
                String name = name(entry);
                CodecConfig config = new CodecConfig(shortId(name), configuration(entry, name), dtype.text());
                Codec c = create(name, config, shape, dtype);
                out.add(c);
                if (c instanceof TransposeCodec t) {
                    shape = t.encodedShape();
                } else if (c instanceof ReshapeCodec r) {
                    shape = r.encodedShape();
                } else if (c instanceof ArrayArrayCodec aa) {
                    ChunkSpec next = aa.encodedSpec(new ChunkSpec(elements(shape), dtype));
                    dtype = next.dtype();
                    if (next.elements() != elements(shape)) {
                        shape = new int[] {(int) next.elements()};
                    }
                }
            }
            return out;
        }

        private Codec create(String name, CodecConfig config, int[] shape, NumpyDtype dtype) throws IOException {
            switch (name) {
                case "bytes":
                case "endian":
                    return EndianCodec.create(config, dtype);
                case "transpose":
                    return TransposeCodec.create(config, shape, dtype);
                case "vlen-utf8":
                case "vlen-bytes":
                    if (dtype.kind() != 'O') {
                        throw new CodecException("codec '" + name + "' on fixed-size elements " + dtype.str());
                    }
                    return RawBytesCodec.INSTANCE;
                case "sharding_indexed":
                    return sharding(config, shape, dtype);
                case "reshape":
                    return ReshapeCodec.create(config, shape);
                case "packbits":
                    // zarr-extensions' array -> bytes codec; numcodecs' filter is "numcodecs.packbits"
                    return V3PackBitsCodec.create(config, dtype, elements(shape));
                case "numcodecs.jenkins_lookup3":
                    return JenkinsLookup3Codec.create(config);
                default:
                    return registry.create(config);
            }
        }

        private ShardingCodec sharding(CodecConfig config, int[] shape, NumpyDtype dtype) throws IOException {
            JsonNode p = config.params();
            JsonNode cs = p.get("chunk_shape");
            if (cs == null || !cs.isArray() || cs.size() != shape.length) {
                throw new CodecException("sharding_indexed: chunk_shape " + cs + " does not have rank " + shape.length);
            }
            int[] inner = new int[shape.length];
            long innerElements = 1;
            for (int d = 0; d < inner.length; d++) {
                JsonNode v = cs.get(d);
                inner[d] = v.isIntegralNumber() && v.canConvertToInt() ? v.intValue() : 0;
                if (inner[d] <= 0 || shape[d] % inner[d] != 0) {
                    throw new CodecException("sharding_indexed: chunk_shape " + cs + " does not divide the shard shape "
                            + java.util.Arrays.toString(shape));
                }
                innerElements *= inner[d];
            }
            long chunks = elements(shape) / innerElements;
            if (chunks > Integer.MAX_VALUE / 16) {
                throw new CodecException("sharding_indexed: " + chunks + " inner chunks per shard are too many");
            }
            JsonNode innerCodecs = p.has("codecs") ? p.get("codecs") : bytesOnly();
            List<Codec> innerChain = chain(innerCodecs, inner, dtype);
            CodecPipeline innerPipeline = CodecPipeline.of(innerChain, new ChunkSpec(innerElements, dtype), cap);
            JsonNode indexCodecs = p.has("index_codecs") ? p.get("index_codecs") : defaultIndexCodecs();
            int[] indexShape = java.util.Arrays.copyOf(grid(shape, inner), shape.length + 1);
            indexShape[shape.length] = 2;
            NumpyDtype u8 = NumpyDtype.parseOrNull("<u8");
            CodecPipeline index =
                    CodecPipeline.of(chain(indexCodecs, indexShape, u8), new ChunkSpec(2 * chunks, u8), cap);
            long indexBytes = 16 * chunks;
            if (!index.arrayArrayCodecs().isEmpty()) {
                throw new CodecException("sharding_indexed: array->array index codecs are not supported");
            }
            for (BytesBytesCodec bb : index.bytesBytesCodecs()) {
                indexBytes = bb.maxEncodedBytes(indexBytes);
                if (indexBytes == ChunkSpec.UNKNOWN) {
                    throw new CodecException("sharding_indexed: index_codecs must have a fixed size (bytes, crc32c)");
                }
            }
            String location = config.stringParam("index_location", "end");
            if (!location.equals("end") && !location.equals("start")) {
                throw new CodecException(
                        "sharding_indexed: index_location '" + location + "' is neither start nor end");
            }
            boolean vlen = dtype.kind() == 'O';
            byte[] fillElement = vlen ? new byte[0] : V3Fill.elementBytes(fill, dtype);
            byte[] fillString =
                    fill != null && fill.isTextual() ? fill.textValue().getBytes(StandardCharsets.UTF_8) : new byte[0];
            return new ShardingCodec(
                    shape,
                    inner,
                    innerPipeline,
                    index,
                    (int) indexBytes,
                    location.equals("end"),
                    vlen ? 0 : dtype.itemsize(),
                    fillElement,
                    fillString);
        }

        private static int[] grid(int[] shape, int[] inner) {
            int[] g = new int[shape.length];
            for (int d = 0; d < g.length; d++) {
                g[d] = shape[d] / inner[d];
            }
            return g;
        }

        private static JsonNode bytesOnly() {
            ObjectNode b = JsonNodeFactory.instance.objectNode().put("name", "bytes");
            b.putObject("configuration").put("endian", "little");
            return JsonNodeFactory.instance.arrayNode().add(b);
        }

        private static JsonNode defaultIndexCodecs() {
            return ((com.fasterxml.jackson.databind.node.ArrayNode) bytesOnly())
                    .add(JsonNodeFactory.instance.objectNode().put("name", "crc32c"));
        }
    }

    /** A codec entry's name: {@code {"name": ...}} or a bare string. */
    static String name(JsonNode entry) throws CodecException {
        JsonNode n = entry.isTextual() ? entry : entry.get("name");
        if (n == null || !n.isTextual() || n.textValue().isEmpty()) {
            throw new CodecException("codecs: entry without a \"name\": " + entry.getNodeType());
        }
        return n.textValue();
    }

    /** The registry id of a v3 codec name ({@code numcodecs.zlib} → {@code zlib}). */
    static String shortId(String name) {
        return name.startsWith("numcodecs.") ? name.substring("numcodecs.".length()) : name;
    }

    /** The entry's configuration (with the short id added, as numcodecs configs carry one). */
    private static ObjectNode configuration(JsonNode entry, String name) throws CodecException {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        JsonNode c = entry.isObject() ? entry.get("configuration") : null;
        if (c != null && !c.isNull()) {
            if (!c.isObject()) {
                throw new CodecException("codec '" + name + "': configuration is not an object");
            }
            out.setAll((ObjectNode) c);
        }
        out.put("id", shortId(name));
        return out;
    }
}
