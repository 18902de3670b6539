package io.nczarr.cli;

import io.nczarr.cdm.NcZarrFiles;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;
import ucar.ma2.Array;
import ucar.ma2.InvalidRangeException;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDataset;
import ucar.nc2.dataset.VariableDS;
import ucar.nc2.time.CalendarDateUnit;

/**
 * {@code nczarr quicklook URL VAR [--index dim=i,...] [--range min,max] [--palette viridis|diverging] [-o
 * out.png]}: a PNG of a 2-D slice (the last two dimensions; the others at index 0 unless given) of the
 * CF-enhanced values (scale/offset applied), coloured on a viridis-like scale between the slice's minimum and
 * maximum (or the given range; the diverging palette centres 0), fill and NaN transparent, with axes labelled
 * by coordinate values, a colour bar and a legend (variable, units, min/max, the fixed indices with their
 * time or coordinate values, what transparent means). Pure Java2D.
 *
 * <p>Layout: data column {@code i} is image column {@link #LEFT} {@code + i*cell}; data row {@code j} is image
 * row {@link #TOP} {@code + (ny-1-j)*cell} when the row dimension's coordinate increases (north up), else
 * {@code TOP + j*cell}.
 */
final class Quicklook {
    private Quicklook() {}

    /** Room for the y axis' tick labels. */
    static final int LEFT = 64;

    static final int TOP = 44;
    /** Below the plot: x tick labels, the x axis name and two legend lines. */
    static final int BOTTOM = 70;

    static final int BAR = 16;
    /** The plot's longer side aims at this many pixels (whole cells; large grids are subsampled). */
    static final int TARGET = 400;

    /** What was drawn: the image and the cell geometry, for tests and the summary line. */
    record Plot(
            BufferedImage image,
            int nx,
            int ny,
            int cell,
            int stride,
            boolean flipped,
            double min,
            double max,
            int transparent) {}

    static int run(List<String> args, PrintStream out) throws IOException {
        String url = null;
        String var = null;
        String output = null;
        Map<String, Integer> index = new LinkedHashMap<>();
        QuicklookStyle.Style style = QuicklookStyle.Style.DEFAULT;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--range")) {
                style = QuicklookStyle.Style.withRange(style, Main.optionValue(args, i++));
            } else if (a.equals("--palette")) {
                QuicklookStyle.Palette p = QuicklookStyle.Palette.parse(Main.optionValue(args, i++));
                style = new QuicklookStyle.Style(style.lo(), style.hi(), p);
            } else if (a.equals("-o") || a.equals("--index")) {
                if (i + 1 >= args.size()) {
                    throw new Main.UsageException(a + " needs a value");
                }
                String v = args.get(++i);
                if (a.equals("-o")) {
                    output = v;
                } else {
                    for (String part : v.split(",")) {
                        String[] kv = part.split("=", 2);
                        if (kv.length != 2 || kv[0].isBlank()) {
                            throw new Main.UsageException("--index wants dim=i[,dim=i...], not '" + part + "'");
                        }
                        index.put(kv[0].strip(), Main.intOption("--index " + kv[0].strip(), kv[1], 0));
                    }
                }
            } else if (a.startsWith("-")) {
                throw new Main.UsageException("unknown option " + a);
            } else if (url == null) {
                url = a;
            } else if (var == null) {
                var = a;
            } else {
                throw new Main.UsageException("quicklook takes one URL and one variable");
            }
        }
        if (var == null) {
            throw new Main.UsageException("quicklook needs a URL and a variable");
        }
        Path png = Paths.get(output != null ? output : var.replaceAll("[^A-Za-z0-9_.-]", "_") + ".png");
        checkWritable(png);
        Plot plot;
        try (NetcdfDataset ds = NcZarrFiles.openDataset(url, true)) {
            Variable v = find(ds, var);
            plot = draw(v, index, Main.nameOf(url), style);
        }
        System.setProperty("java.awt.headless", "true");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        if (!ImageIO.write(plot.image(), "png", bytes)) {
            throw new IOException("no PNG writer in this Java runtime");
        }
        try {
            Files.write(png, bytes.toByteArray());
        } catch (IOException e) {
            throw new Main.OutputException(png + ": cannot write the PNG ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
        }
        out.printf(
                Locale.ROOT,
                "%s: %dx%d px, %s %d x %d cells%s, min %s max %s, %d transparent (fill, missing or NaN)%n",
                png,
                plot.image().getWidth(),
                plot.image().getHeight(),
                var,
                plot.ny(),
                plot.nx(),
                plot.stride() > 1 ? " (every " + plot.stride() + "th)" : "",
                fmt(plot.min()),
                fmt(plot.max()),
                plot.transparent());
        return 0;
    }

    /** Fails before any reading when the PNG cannot be written there. */
    static void checkWritable(Path png) throws IOException {
        Path abs = png.toAbsolutePath();
        Path dir = abs.getParent();
        String why = null;
        if (Files.isDirectory(abs)) {
            why = "is a directory";
        } else if (dir == null || !Files.isDirectory(dir)) {
            why = "no such directory " + dir;
        } else if (Files.exists(abs) ? !Files.isWritable(abs) : !Files.isWritable(dir)) {
            why = "permission denied";
        }
        if (why != null) {
            throw new Main.OutputException(png + ": cannot write the PNG (" + why + ")");
        }
    }

    static Variable find(NetcdfDataset ds, String name) {
        Variable v = ds.findVariable(name.startsWith("/") ? name.substring(1) : name);
        if (v == null) {
            for (Variable c : ds.getVariables()) {
                if (c.getShortName().equals(name)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("no variable '" + name + "' in the dataset");
        }
        return v;
    }

    /** Reads the slice and draws it (viridis between the slice's minimum and maximum). */
    static Plot draw(Variable v, Map<String, Integer> given, String dataset) throws IOException {
        return draw(v, given, dataset, QuicklookStyle.Style.DEFAULT);
    }

    /** Reads the slice and draws it in the given colour scale. */
    static Plot draw(Variable v, Map<String, Integer> given, String dataset, QuicklookStyle.Style style)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        int rank = v.getRank();
        if (rank < 2) {
            throw new IllegalArgumentException(
                    "variable '" + v.getFullName() + "' has " + rank + " dimension(s); quicklook needs at least 2");
        }
        if (!v.getDataType().isNumeric()) {
            throw new IllegalArgumentException("variable '" + v.getFullName() + "' is not numeric");
        }
        int[] shape = v.getShape();
        int[] origin = new int[rank];
        int[] count = shape.clone();
        Map<String, Integer> unused = new LinkedHashMap<>(given);
        List<String> fixed = new ArrayList<>();
        for (int d = 0; d < rank - 2; d++) {
            Dimension dim = v.getDimension(d);
            String name = dim.getShortName();
            Integer at = unused.remove(name);
            int i = at == null ? 0 : at;
            if (i < 0 || i >= shape[d]) {
                throw new IllegalArgumentException("--index " + name + "=" + i + " is outside 0.." + (shape[d] - 1));
            }
            origin[d] = i;
            count[d] = 1;
            fixed.add(label(v, dim, i));
        }
        if (!unused.isEmpty()) {
            throw new IllegalArgumentException("--index names " + unused.keySet() + ", not among the leading dimensions"
                    + " of '" + v.getFullName() + "' (the last two are plotted)");
        }
        int ny = shape[rank - 2];
        int nx = shape[rank - 1];
        if (nx == 0 || ny == 0) {
            throw new IllegalArgumentException("variable '" + v.getFullName() + "' has an empty slice");
        }
        int stride = Math.max(1, (Math.max(nx, ny) + 1199) / 1200);
        Array a;
        try {
            a = v.read(origin, count);
        } catch (InvalidRangeException e) {
            throw new IllegalStateException(e);
        }
        VariableDS enhanced = v instanceof VariableDS vds ? vds : null;
        // raw values: the _FillValue (unsigned ones too) or the netCDF default fill is transparent
        io.nczarr.model.Fills fill = enhanced != null && enhanced.hasScaleOffset()
                ? io.nczarr.model.Fills.of(io.nczarr.model.NcType.STRING, null)
                : io.nczarr.cdm.CdmFills.of(v);
        int px = (nx + stride - 1) / stride;
        int py = (ny + stride - 1) / stride;
        double[] values = new double[px * py];
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < py; j++) {
            for (int i = 0; i < px; i++) {
                double x = a.getDouble((j * stride) * nx + i * stride);
                if (Double.isNaN(x)
                        || Double.isInfinite(x)
                        || fill.is(x)
                        || (enhanced != null && enhanced.isMissing(x))) {
                    x = Double.NaN;
                } else {
                    min = Math.min(min, x);
                    max = Math.max(max, x);
                }
                values[j * px + i] = x;
            }
        }
        int cell = Math.max(1, Math.min(40, TARGET / Math.max(px, py)));
        boolean flipped = QuicklookAxes.increasing(v, rank - 2);
        int plotW = px * cell;
        int plotH = py * cell;
        int transparent = 0;
        for (double x : values) {
            transparent += Double.isNaN(x) ? 1 : 0;
        }
        double[] ends = style.ends(min, max);
        double lo = ends[0];
        double hi = ends[1];
        String units = attr(v, "units");
        String longName = attr(v, "long_name");
        String title = dataset + ": " + v.getFullName() + (units.isEmpty() ? "" : " [" + units + "]");
        String sub = (longName.isEmpty() ? "" : longName + "  ") + String.join(", ", fixed);
        String yName = v.getDimension(rank - 2).getShortName();
        String xName = v.getDimension(rank - 1).getShortName();
        String legend = "min " + fmt(min) + "  max " + fmt(max)
                + (lo != min || hi != max ? "   colours " + fmt(lo) + " .. " + fmt(hi) + " (beyond: end colours)" : "")
                + (stride > 1 ? "   every " + stride + "th cell" : "");
        String clear = "transparent: fill value, missing or NaN (" + transparent + " of " + values.length + " cells)   "
                + yName + " " + (flipped ? "increases upwards" : "as stored, first row on top");
        int textW = Math.max(
                QuicklookStyle.textWidth(QuicklookStyle.TITLE_FONT, title),
                Math.max(
                        QuicklookStyle.textWidth(QuicklookStyle.FONT, sub),
                        Math.max(
                                QuicklookStyle.textWidth(QuicklookStyle.FONT, legend),
                                QuicklookStyle.textWidth(QuicklookStyle.FONT, clear))));
        int width = Math.max(LEFT + plotW + 12 + BAR + 90, 10 + textW + 10);
        int barH = Math.max(plotH, 120);
        int height = TOP + barH + BOTTOM;
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            // the plot area first cleared to transparent: fill and NaN cells stay see-through
            for (int y = TOP; y < TOP + plotH; y++) {
                for (int x = LEFT; x < LEFT + plotW; x++) {
                    img.setRGB(x, y, 0);
                }
            }
            for (int j = 0; j < py; j++) {
                int row = flipped ? py - 1 - j : j;
                for (int i = 0; i < px; i++) {
                    double x = values[j * px + i];
                    if (Double.isNaN(x)) {
                        continue;
                    }
                    int rgb = style.palette().colour(hi > lo ? (x - lo) / (hi - lo) : 0.5);
                    for (int dy = 0; dy < cell; dy++) {
                        for (int dx = 0; dx < cell; dx++) {
                            img.setRGB(LEFT + i * cell + dx, TOP + row * cell + dy, rgb);
                        }
                    }
                }
            }
            // colour bar: hi at the top
            int barX = LEFT + plotW + 12;
            for (int y = 0; y < barH; y++) {
                int rgb = style.palette().colour(1 - y / (double) Math.max(1, barH - 1));
                for (int x = 0; x < BAR; x++) {
                    img.setRGB(barX + x, TOP + y, rgb);
                }
            }
            g.setColor(Color.DARK_GRAY);
            g.setStroke(new BasicStroke(1));
            g.drawRect(barX - 1, TOP - 1, BAR + 1, barH + 1);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            QuicklookStyle.axes(
                    g,
                    LEFT,
                    TOP,
                    cell,
                    stride,
                    px,
                    py,
                    flipped,
                    QuicklookStyle.coordinate(v, rank - 1),
                    QuicklookStyle.coordinate(v, rank - 2),
                    xName,
                    yName);
            g.setFont(QuicklookStyle.TITLE_FONT);
            g.setColor(Color.BLACK);
            g.drawString(title, 10, 16);
            g.setFont(QuicklookStyle.FONT);
            g.drawString(sub, 10, 32);
            g.drawString(fmt(hi), barX + BAR + 4, TOP + 10);
            g.drawString(fmt(lo), barX + BAR + 4, TOP + barH);
            if (!units.isEmpty()) {
                g.drawString(units, barX + BAR + 4, TOP + barH / 2 + 4);
            }
            g.drawString(legend, 10, TOP + barH + 48);
            g.drawString(clear, 10, TOP + barH + 62);
        } finally {
            g.dispose();
        }
        return new Plot(img, px, py, cell, stride, flipped, min, max, transparent);
    }

    /** A fixed dimension: its index, with the coordinate value (a date for CF time units). */
    private static String label(Variable v, Dimension dim, int i) {
        String name = dim.getShortName();
        String text = name + "=" + i;
        Variable coord = v.getParentGroup().findVariableOrInParent(name);
        if (coord == null || coord.getRank() != 1 || !coord.getDataType().isNumeric()) {
            return text;
        }
        try {
            double value = coord.read(new int[] {i}, new int[] {1}).getDouble(0);
            String units = attr(coord, "units");
            if (units.contains(" since ")) {
                String cal = attr(coord, "calendar");
                CalendarDateUnit u = CalendarDateUnit.of(cal.isEmpty() ? null : cal, units);
                return text + " (" + name + " " + u.makeCalendarDate(value) + ")";
            }
            return text + " (" + fmt(value) + (units.isEmpty() ? "" : " " + units) + ")";
        } catch (IOException | InvalidRangeException | RuntimeException e) {
            return text;
        }
    }

    private static String attr(Variable v, String name) {
        Attribute a = v.findAttribute(name);
        return a != null && a.isString() && a.getStringValue() != null ? a.getStringValue() : "";
    }

    static String fmt(double x) {
        return QuicklookStyle.fmt(x);
    }

    /** Viridis at {@code t} in [0, 1]. */
    static int colour(double t) {
        return QuicklookStyle.Palette.VIRIDIS.colour(t);
    }
}
