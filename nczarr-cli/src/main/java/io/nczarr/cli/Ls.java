package io.nczarr.cli;

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
                    "%-32s %-7s %-18s chunks %-16s %s%s%n",
                    path,
                    v.type().cdlName(),
                    dims(v),
                    Arrays.toString(a.chunks()),
                    codecs(a),
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
}
