package io.nczarr.open;

import io.nczarr.aggregation.AggregatedVariable;
import io.nczarr.aggregation.Aggregation;
import io.nczarr.aggregation.AggregationDocument;
import io.nczarr.aggregation.AggregationParser;
import io.nczarr.aggregation.FragmentCache;
import io.nczarr.aggregation.FragmentFile;
import io.nczarr.aggregation.FragmentOpener;
import io.nczarr.aggregation.FragmentReads;
import io.nczarr.aggregation.FragmentSources;
import io.nczarr.aggregation.UnitConversions;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.model.Attr;
import io.nczarr.model.Dim;
import io.nczarr.model.GroupModel;
import io.nczarr.model.VarModel;
import io.nczarr.read.VariableReader;
import io.nczarr.url.DatasetUrl;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CF-1.13 / CFA aggregations of a Zarr or NCZarr dataset read by the core alone (no host library): the
 * dataset is the {@link AggregationDocument}, fragments that are Zarr/NCZarr stores (or reference files) are
 * opened with {@link Datasets#open} under the trust rules, with the aggregation as their origin. A netCDF
 * fragment needs a host binding (netCDF-Java's {@code AggregationIosp}) and is refused here. No units library:
 * fragments in other units than the aggregation variable's are refused ({@link UnitConversions#NONE}). Closing
 * closes the fragments opened; the dataset stays the caller's.
 */
public final class ZarrAggregation implements Closeable {
    private final Map<String, AggregatedVariable> variables;
    private final List<String> hidden;
    private final FragmentCache files;

    private ZarrAggregation(Map<String, AggregatedVariable> variables, List<String> hidden, FragmentCache files) {
        this.variables = variables;
        this.hidden = hidden;
        this.files = files;
    }

    /** The aggregations of {@code ds} (none: an empty result); fragments open on first read. */
    public static ZarrAggregation of(OpenDataset ds) throws IOException {
        NcZarrOptions options = ds.options();
        String location = ds.model().location();
        AggregationDocument doc = document(ds);
        FragmentSources sources = new FragmentSources(location, options.trust(), opener(options));
        FragmentCache files =
                new FragmentCache(sources::open, options.aggregation().maxOpenFragments());
        FragmentReads reads =
                new FragmentReads(sources, files, options.readPool().fragmentPool(), options.limits());
        AggregationParser parser = new AggregationParser(doc, options.limits());
        Map<String, AggregatedVariable> out = new LinkedHashMap<>();
        for (Map.Entry<String, VariableReader> e : doc.variables().entrySet()) {
            VariableReader v = e.getValue();
            if (!AggregationParser.isAggregationVariable(v.attributes())) {
                continue;
            }
            Aggregation a = parser.parse(e.getKey(), v);
            List<Attr> shown = new ArrayList<>();
            for (Attr at : v.attributes()) {
                if (!AggregationParser.isBookkeeping(at)) {
                    shown.add(at);
                }
            }
            out.put(e.getKey(), new AggregatedVariable(e.getKey(), a, v.type(), shown, UnitConversions.NONE, reads));
        }
        List<String> hidden = new ArrayList<>(parser.hiddenVariables());
        hidden.addAll(parser.hiddenGroups());
        return new ZarrAggregation(Collections.unmodifiableMap(out), List.copyOf(hidden), files);
    }

    /** The aggregation variables by full path, presented (aggregated shape, bookkeeping attributes left out). */
    public Map<String, AggregatedVariable> variables() {
        return variables;
    }

    /** Full paths of the bookkeeping variables and CFA groups, which a host does not show. */
    public List<String> bookkeeping() {
        return hidden;
    }

    /** {@code {opened, closed, open now}} fragment counts. */
    public long[] fragmentCounts() {
        return files.counts();
    }

    @Override
    public void close() {
        files.close();
    }

    /** A Zarr / NCZarr dataset as an aggregation document. */
    static AggregationDocument document(OpenDataset ds) {
        Map<String, VariableReader> vars = new LinkedHashMap<>();
        for (Map.Entry<String, VarModel> e : ds.variables().entrySet()) {
            vars.put(e.getKey(), ds.typed(e.getKey(), e.getValue()));
        }
        Map<String, VariableReader> all = Collections.unmodifiableMap(vars);
        GroupModel root = ds.model().root();
        return new AggregationDocument() {
            @Override
            public String location() {
                return ds.model().location();
            }

            @Override
            public Map<String, VariableReader> variables() {
                return all;
            }

            @Override
            public long dimensionLength(String groupPath, String name) {
                for (String g = groupPath; g != null; g = parentOf(g)) {
                    GroupModel gm = group(root, g);
                    if (gm != null) {
                        for (Dim d : gm.dimensions()) {
                            if (d.name().equals(name)) {
                                return d.length();
                            }
                        }
                    }
                }
                return -1;
            }

            @Override
            public String findGroup(String groupPath, String name) {
                GroupModel g = group(root, groupPath);
                if (g != null) {
                    for (GroupModel c : g.groups()) {
                        if (c.name().equals(name)) {
                            return c.path();
                        }
                    }
                }
                return null;
            }
        };
    }

    private static String parentOf(String path) {
        if (path.equals("/")) {
            return null;
        }
        int i = path.lastIndexOf('/');
        return i <= 0 ? "/" : path.substring(0, i);
    }

    private static GroupModel group(GroupModel root, String path) {
        if (path.equals("/")) {
            return root;
        }
        GroupModel g = root;
        for (String part : path.substring(1).split("/")) {
            GroupModel next = null;
            for (GroupModel c : g.groups()) {
                if (c.name().equals(part)) {
                    next = c;
                }
            }
            if (next == null) {
                return null;
            }
            g = next;
        }
        return g;
    }

    /** Opens Zarr / NCZarr / reference-file fragments through the core; a netCDF file is refused. */
    static FragmentOpener opener(NcZarrOptions options) {
        return (r, origin) -> {
            DatasetUrl url = Datasets.resolve(Datasets.parse(r.location()), options);
            if (url.isBytes()) {
                throw new UnsupportedFeatureException(
                        "netCDF fragments without a host",
                        "the fragment " + r.uri() + " is a netCDF file, which the core does not read (open the"
                                + " aggregation through the netCDF-Java binding)");
            }
            OpenDataset f = Datasets.open(url, options, origin);
            return new FragmentFile() {
                @Override
                public VariableReader variable(String identifier) {
                    String p = identifier.startsWith("/") ? identifier : "/" + identifier;
                    VarModel v = f.variables().get(p);
                    return v == null ? null : f.typed(p, v);
                }

                @Override
                public void close() throws IOException {
                    f.close();
                }
            };
        };
    }
}
