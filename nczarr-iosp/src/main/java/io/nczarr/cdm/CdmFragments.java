package io.nczarr.cdm;

import io.nczarr.aggregation.AggregationDocument;
import io.nczarr.aggregation.FragmentFile;
import io.nczarr.aggregation.FragmentOpener;
import io.nczarr.aggregation.FragmentUris;
import io.nczarr.aggregation.UnitConversions;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.read.VariableReader;
import io.nczarr.source.Origin;
import io.nczarr.store.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import ucar.nc2.Dimension;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;
import ucar.units.Converter;
import ucar.units.Unit;
import ucar.units.UnitFormat;
import ucar.units.UnitFormatManager;

/**
 * What netCDF-Java gives the core's aggregation reading: netCDF files as aggregation documents and fragments
 * (a Zarr fragment is opened by this project's own iosp, without aggregation), and udunits conversions.
 */
final class CdmFragments {
    private CdmFragments() {}

    /** Opens trust-checked fragments with the project's openers, never as an aggregation itself. */
    static FragmentOpener opener(NcZarrOptions options) {
        return (FragmentUris.Resolved r, Origin origin) -> {
            NetcdfFile nc;
            if (r.local()) {
                Path p = Paths.get(r.location());
                nc = Files.isDirectory(p) || Stores.isZarrZip(p)
                        ? NcZarrFiles.openPlain(p.toString(), options, origin)
                        : NetcdfFile.open(p.toString());
            } else {
                nc = NcZarrFiles.openPlain(r.location(), options, origin);
            }
            return file(nc, r.location());
        };
    }

    /** An open netCDF file as a fragment: its variables by name, reads serialised on the file. */
    static FragmentFile file(NetcdfFile nc, String location) {
        return new FragmentFile() {
            @Override
            public VariableReader variable(String identifier) {
                Variable v = nc.findVariable(identifier.startsWith("/") ? identifier.substring(1) : identifier);
                return v == null ? null : new CdmVariableReader(v, nc, location);
            }

            @Override
            public void close() throws IOException {
                nc.close();
            }
        };
    }

    /** A netCDF file as the document an aggregation is declared in. */
    static AggregationDocument document(NetcdfFile source, String location) {
        Map<String, VariableReader> vars = new LinkedHashMap<>();
        for (Variable v : source.getVariables()) {
            vars.put("/" + v.getFullName(), new CdmVariableReader(v, source, location));
        }
        Map<String, VariableReader> all = Collections.unmodifiableMap(vars);
        return new AggregationDocument() {
            @Override
            public String location() {
                return location;
            }

            @Override
            public Map<String, VariableReader> variables() {
                return all;
            }

            @Override
            public long dimensionLength(String groupPath, String name) {
                Group g = group(source, groupPath);
                Dimension d = g == null ? null : g.findDimension(name);
                return d == null ? -1 : d.getLength();
            }

            @Override
            public String findGroup(String groupPath, String name) {
                Group g = group(source, groupPath);
                Group c = g == null ? null : g.findGroup(name);
                return c == null ? null : "/" + c.getFullName();
            }
        };
    }

    private static Group group(NetcdfFile nc, String path) {
        return path.equals("/") ? nc.getRootGroup() : nc.findGroup(path.substring(1));
    }

    /** udunits (netCDF-Java's units package). */
    static final UnitConversions UDUNITS = (String from, String to) -> {
        Unit f;
        Unit t;
        try {
            UnitFormat format = UnitFormatManager.instance();
            f = format.parse(from);
            t = format.parse(to);
        } catch (Exception e) {
            throw new IllegalArgumentException(e.toString(), e);
        }
        if (!f.isCompatible(t)) {
            return null;
        }
        try {
            Converter c = f.getConverterTo(t);
            return (DoubleUnaryOperator) c::convert;
        } catch (Exception e) {
            throw new IllegalArgumentException(e.toString(), e);
        }
    };
}
