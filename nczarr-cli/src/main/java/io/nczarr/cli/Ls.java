package io.nczarr.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.codec.CodecConfig;
import io.nczarr.error.Redaction;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.GroupModel;
import io.nczarr.model.VarModel;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import ucar.nc2.Attribute;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/** {@code nczarr ls URL}: one line per variable with type, shape, chunking and codecs. */
final class Ls {
    private Ls() {}

    static int run(List<String> args, PrintStream out) throws IOException {
        for (String a : args) {
            if (a.startsWith("-") && a.length() > 1) {
                throw new Main.UsageException("unknown option " + a);
            }
        }
        if (args.size() != 1) {
            throw new Main.UsageException("ls needs exactly one URL");
        }
        try (NetcdfFile nc = NcZarrFiles.open(args.get(0))) {
            DatasetModel model = NcZarrFiles.model(nc);
            if (model == null) {
                // #mode=bytes: a netCDF-3 / netCDF-4 file read by cdm's own readers, no Zarr model
                out.println(Redaction.redact(args.get(0)) + " (" + nc.getFileTypeId() + ", read by netCDF-Java)");
                for (Variable v : nc.getVariables()) {
                    Attribute cs = v.findAttribute("_ChunkSizes");
                    out.printf(
                            "%-32s %-7s %-18s chunks %s%n",
                            "/" + v.getFullName(),
                            CdlWriter.typeName(v.getDataType(), v.isUnsigned()),
                            cdmDims(v),
                            cs == null
                                    ? "contiguous"
                                    : cs.getValues().toString().trim());
                }
                return 0;
            }
            out.println(model.location() + " (" + model.conventions() + ")");
            IcechunkLogCommand.selected(args.get(0)).ifPresent(out::println);
            print(model.root(), out);
        }
        return 0;
    }

    private static String cdmDims(Variable v) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < v.getRank(); i++) {
            String d = v.getDimension(i).getShortName();
            parts.add((d == null ? "" : d) + "=" + v.getShape(i));
        }
        return "(" + String.join(", ", parts) + ")";
    }

    private static void print(GroupModel g, PrintStream out) {
        for (VarModel v : g.variables()) {
            String path = g.path().equals("/") ? "/" + v.name() : g.path() + "/" + v.name();
            ArrayMeta a = v.array();
            out.printf(
                    "%-32s %-7s %-18s %-23s %s%s%n",
                    path,
                    v.type().cdlName(),
                    dims(v),
                    chunking(a),
                    a.isV3() ? v3Codecs(a.v3().codecs()) : codecs(a),
                    a.fortranOrder() ? " order=F" : "");
        }
        g.groups().forEach(c -> print(c, out));
    }

    private static String dims(VarModel v) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < v.shape().length; i++) {
            String d = v.dimensions().get(i);
            parts.add(d.substring(d.lastIndexOf('/') + 1) + "=" + v.shape()[i]);
        }
        return "(" + String.join(", ", parts) + ")";
    }

    private static String codecs(ArrayMeta a) {
        List<String> parts = new ArrayList<>();
        for (CodecConfig f : a.filters()) {
            parts.add(f.params().toString());
        }
        if (a.compressor() != null) {
            parts.add(a.compressor().params().toString());
        }
        return parts.isEmpty() ? "uncompressed" : String.join(" -> ", parts);
    }

    /**
     * "chunks [4, 4]", or for a sharded Zarr v3 array "shard [4, 4] chunks [2, 2]" (the shard is the stored
     * object; its inner chunks are what a read decodes; nested sharding adds further "chunks [...]").
     */
    static String chunking(ArrayMeta a) {
        if (!a.isV3()) {
            return "chunks " + Arrays.toString(a.chunks());
        }
        StringBuilder sb = new StringBuilder();
        JsonNode sharding = sharding(a.v3().codecs());
        sb.append(sharding == null ? "chunks " : "shard ")
                .append(a.edges() != null ? a.edges().toString() : Arrays.toString(a.chunks()));
        while (sharding != null) {
            JsonNode cfg = sharding.path("configuration");
            sb.append(" chunks ").append(compact(cfg.path("chunk_shape")));
            sharding = sharding(cfg.path("codecs"));
        }
        return sb.toString();
    }

    private static JsonNode sharding(JsonNode codecs) {
        for (JsonNode c : codecs) {
            if ("sharding_indexed".equals(c.path("name").asText())) {
                return c;
            }
        }
        return null;
    }

    /**
     * A Zarr v3 codec chain in encode order: {@code transpose(order=[1,0]) -> bytes(endian=little) ->
     * blosc(cname=zstd,...)}; a shard as {@code sharding[inner chain; index: its chain, end]}.
     */
    static String v3Codecs(JsonNode codecs) {
        List<String> parts = new ArrayList<>();
        for (JsonNode c : codecs) {
            String name = c.path("name").asText("?");
            JsonNode cfg = c.path("configuration");
            if (name.equals("sharding_indexed")) {
                parts.add("sharding[" + v3Codecs(cfg.path("codecs")) + "; index: "
                        + v3Codecs(cfg.path("index_codecs")) + ", "
                        + cfg.path("index_location").asText("end")
                        + "]");
                continue;
            }
            List<String> kv = new ArrayList<>();
            for (var e : cfg.properties()) {
                kv.add(e.getKey() + "=" + compact(e.getValue()));
            }
            parts.add(kv.isEmpty() ? name : name + "(" + String.join(",", kv) + ")");
        }
        return parts.isEmpty() ? "(no codecs)" : String.join(" -> ", parts);
    }

    private static String compact(JsonNode n) {
        if (n.isTextual()) {
            return n.asText();
        }
        if (n.isArray()) {
            List<String> items = new ArrayList<>();
            n.forEach(i -> items.add(compact(i)));
            return "[" + String.join(", ", items) + "]";
        }
        return n.toString();
    }
}
