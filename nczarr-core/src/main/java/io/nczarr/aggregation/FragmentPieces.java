package io.nczarr.aggregation;

import io.nczarr.error.MetadataException;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.TargetRefusedException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.read.ArraySection;
import io.nczarr.read.TypedArray;
import io.nczarr.read.VariableReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Reads the piece of one fragment a section needs, in canonical form, naming the fragment in every failure. */
final class FragmentPieces {
    private FragmentPieces() {}

    static TypedArray read(
            AggregatedVariable av,
            Fragment f,
            FragmentGrid.Piece p,
            int[] shape,
            FragmentReads reads,
            CanonicalValues canonical)
            throws IOException {
        Aggregation agg = av.aggregation();
        String location = agg.dataset();
        String name = AggregationParser.nm(av.path());
        FragmentUris.Resolved r = reads.sources().resolve(f, name);
        FragmentCache.Handle h = reads.files().acquire(r);
        boolean failed = true;
        try {
            FragmentFile file;
            try {
                file = h.file();
            } catch (TargetRefusedException e) {
                throw e.dataset() == null ? e.withContext(location, f.key(), name) : e;
            } catch (IOException e) {
                throw new NcZarrException(location, f.key(), name, "cannot open the fragment: " + e.getMessage(), e);
            }
            String id = f.identifier();
            VariableReader fv = id == null ? null : file.variable(id);
            if (fv == null) {
                throw new MetadataException(location, f.key(), name, "the fragment has no variable '" + id + "'", null);
            }
            if (AggregationParser.isAggregationVariable(fv.attributes())) {
                throw new UnsupportedFeatureException(
                        location,
                        f.key(),
                        name,
                        "nested aggregations",
                        "the fragment variable '" + id + "' is itself an aggregation variable",
                        null);
            }
            long[] expected = agg.grid().fragmentShape(p.position());
            long[] fshape = fv.shape();
            checkDimensionOrder(fv, agg.dimensions(), location, f, name);
            List<Integer> aggDims = new ArrayList<>();
            for (int d = 0; d < expected.length; d++) {
                if (expected[d] != 1) {
                    aggDims.add(d);
                }
            }
            long[] origin = new long[fshape.length];
            int[] count = new int[fshape.length];
            int[] stride = new int[fshape.length];
            int k = 0;
            boolean ok = true;
            for (int j = 0; j < fshape.length && ok; j++) {
                if (fshape[j] == 1) {
                    count[j] = 1;
                    stride[j] = 1;
                } else if (k < aggDims.size() && expected[aggDims.get(k)] == fshape[j]) {
                    int d = aggDims.get(k++);
                    origin[j] = p.origin()[d];
                    count[j] = (int) p.count()[d];
                    stride[j] = (int) p.stride()[d];
                } else {
                    ok = false;
                }
            }
            if (!ok || k != aggDims.size()) {
                throw new MetadataException(
                        location,
                        f.key(),
                        name,
                        "the fragment variable '" + id + "' has the shape " + Arrays.toString(fshape)
                                + ", but the map gives the fragment the shape " + Arrays.toString(expected),
                        null);
            }
            TypedArray raw = fv.read(new ArraySection(origin, count, stride));
            TypedArray c;
            try {
                c = canonical.canonical(fv, raw);
            } catch (UnsupportedFeatureException e) {
                throw new UnsupportedFeatureException(location, f.key(), name, e.feature(), e.detail(), null);
            }
            failed = false;
            return new TypedArray(c.type(), shape, c.storage());
        } catch (NcZarrException e) {
            throw e.dataset() == null ? e.withContext(location, f.key(), name) : e;
        } catch (IOException e) {
            throw new NcZarrException(location, f.key(), name, "cannot read the fragment: " + e.getMessage(), e);
        } finally {
            reads.files().release(h, failed);
        }
    }

    /**
     * Fragment dimensions are taken in the aggregation's order (CF 2.8.2 canonical form); when the fragment names
     * its dimensions as the aggregation does, but in another order, reading would transpose the data, so it is
     * refused.
     */
    private static void checkDimensionOrder(
            VariableReader fv, List<String> aggregated, String location, Fragment f, String name)
            throws UnsupportedFeatureException {
        int last = -1;
        long[] shape = fv.shape();
        List<String> dims = fv.dimensions();
        List<String> shortNames = new ArrayList<>();
        for (int j = 0; j < dims.size(); j++) {
            String d = dims.get(j);
            String s = d == null ? null : d.substring(d.lastIndexOf('/') + 1);
            shortNames.add(s);
            int at = s == null || s.isEmpty() || shape[j] == 1 ? -1 : aggregated.indexOf(s);
            if (at < 0) {
                continue;
            }
            if (at < last) {
                throw new UnsupportedFeatureException(
                        location,
                        f.key(),
                        name,
                        "fragment dimension order",
                        "the fragment variable's dimensions " + String.join(" ", shortNames.subList(0, j))
                                + (j > 0 ? " " : "") + String.join(" ", names(dims.subList(j, dims.size())))
                                + " are in another order than the aggregated dimensions " + aggregated,
                        null);
            }
            last = at;
        }
    }

    private static List<String> names(List<String> dims) {
        List<String> out = new ArrayList<>();
        for (String d : dims) {
            out.add(d == null ? "" : d.substring(d.lastIndexOf('/') + 1));
        }
        return out;
    }
}
