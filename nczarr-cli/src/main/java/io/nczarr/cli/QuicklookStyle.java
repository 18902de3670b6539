package io.nczarr.cli;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.util.Locale;
import ucar.ma2.Array;
import ucar.nc2.Variable;

/**
 * What {@code quicklook} draws besides the cells: the palettes, the colour range, the axes with their
 * coordinate tick labels, and number formatting.
 */
final class QuicklookStyle {
    private QuicklookStyle() {}

    /** The colour scales. */
    enum Palette {
        /** Viridis (sequential), approximated by linear interpolation between nine of its colours. */
        VIRIDIS(0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21918c, 0x28ae80, 0x5ec962, 0xaddc30, 0xfde725),
        /** Blue - white - red (ColorBrewer RdBu reversed), for anomalies: white at the middle of the range. */
        DIVERGING(0x2166ac, 0x4393c3, 0x92c5de, 0xd1e5f0, 0xf7f7f7, 0xfddbc7, 0xf4a582, 0xd6604d, 0xb2182b);

        private final int[] stops;

        Palette(int... stops) {
            this.stops = stops;
        }

        static Palette parse(String s) {
            switch (s.toLowerCase(Locale.ROOT)) {
                case "viridis":
                    return VIRIDIS;
                case "diverging":
                    return DIVERGING;
                default:
                    throw new Main.UsageException("--palette is viridis or diverging, not '" + s + "'");
            }
        }

        /** The colour at {@code t} in [0, 1] (clamped), opaque ARGB. */
        int colour(double t) {
            double u = Math.max(0, Math.min(1, t)) * (stops.length - 1);
            int k = Math.min(stops.length - 2, (int) Math.floor(u));
            double f = u - k;
            int a = stops[k];
            int b = stops[k + 1];
            int r = (int) Math.round(((a >> 16) & 0xff) * (1 - f) + ((b >> 16) & 0xff) * f);
            int gr = (int) Math.round(((a >> 8) & 0xff) * (1 - f) + ((b >> 8) & 0xff) * f);
            int bl = (int) Math.round((a & 0xff) * (1 - f) + (b & 0xff) * f);
            return 0xff000000 | r << 16 | gr << 8 | bl;
        }
    }

    /**
     * The colour scale: the palette and the values at its ends ({@code lo}, {@code hi} null = the slice's
     * minimum and maximum; with the diverging palette, symmetric about 0).
     */
    record Style(Double lo, Double hi, Palette palette) {
        static final Style DEFAULT = new Style(null, null, Palette.VIRIDIS);

        /** {@code --range min,max}. */
        static Style withRange(Style s, String value) {
            String[] parts = value.split(",", -1);
            if (parts.length != 2) {
                throw new Main.UsageException("--range wants min,max, not '" + value + "'");
            }
            double lo;
            double hi;
            try {
                lo = Double.parseDouble(parts[0].strip());
                hi = Double.parseDouble(parts[1].strip());
            } catch (NumberFormatException e) {
                throw new Main.UsageException("--range wants two numbers min,max, not '" + value + "'");
            }
            if (!(lo < hi) || Double.isInfinite(lo) || Double.isInfinite(hi)) {
                throw new Main.UsageException("--range min,max needs min < max, not '" + value + "'");
            }
            return new Style(lo, hi, s.palette());
        }

        /** The scale's ends for a slice of these extremes: {lo, hi}. */
        double[] ends(double min, double max) {
            if (lo != null) {
                return new double[] {lo, hi};
            }
            if (palette == Palette.DIVERGING && !Double.isNaN(min) && !Double.isInfinite(min)) {
                double m = Math.max(Math.abs(min), Math.abs(max));
                return new double[] {-m, m};
            }
            return new double[] {min, max};
        }
    }

    /** The 1-D numeric coordinate values of dimension {@code d} of {@code v}, or null. */
    static double[] coordinate(Variable v, int d) {
        String name = v.getDimension(d).getShortName();
        Variable c = name == null ? null : v.getParentGroup().findVariableOrInParent(name);
        if (c == null
                || c.getRank() != 1
                || !c.getDataType().isNumeric()
                || c.getSize() != v.getShape(d)
                || c.getSize() > 1 << 20) {
            return null;
        }
        try {
            Array a = c.read();
            double[] out = new double[(int) a.getSize()];
            for (int i = 0; i < out.length; i++) {
                out[i] = a.getDouble(i);
            }
            return out;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Up to {@code max} evenly spread indices of {@code 0..n-1}, the first and the last included. */
    static int[] ticks(int n, int max) {
        int k = Math.max(1, Math.min(n, max));
        int[] out = new int[k];
        for (int i = 0; i < k; i++) {
            out[i] = k == 1 ? 0 : (int) Math.round(i * (n - 1) / (double) (k - 1));
        }
        return out;
    }

    /** A tick label: the coordinate value, else the index. */
    static String tickLabel(double[] coord, int i) {
        return coord == null ? Integer.toString(i) : fmt(coord[i]);
    }

    /**
     * The axes: x (the last dimension) below the plot, y (the one before) left of it, each with tick marks at
     * cell centres labelled by coordinate values (indices without a coordinate variable) and the name.
     */
    static void axes(
            Graphics2D g,
            int left,
            int top,
            int cell,
            int stride,
            int px,
            int py,
            boolean flipped,
            double[] xs,
            double[] ys,
            String xName,
            String yName) {
        g.setColor(Color.DARK_GRAY);
        g.setFont(FONT);
        int plotW = px * cell;
        int plotH = py * cell;
        g.drawRect(left - 1, top - 1, plotW + 1, plotH + 1);
        int maxX = Math.max(2, plotW / 60);
        for (int t : ticks(px, maxX)) {
            int x = left + t * cell + cell / 2;
            g.drawLine(x, top + plotH, x, top + plotH + 4);
            String label = tickLabel(xs, t * stride);
            g.drawString(label, x - textWidth(FONT, label) / 2, top + plotH + 15);
        }
        g.drawString(xName, left + plotW / 2 - textWidth(FONT, xName) / 2, top + plotH + 28);
        int maxY = Math.max(2, plotH / 30);
        for (int t : ticks(py, maxY)) {
            int row = flipped ? py - 1 - t : t;
            int y = top + row * cell + cell / 2;
            g.drawLine(left - 5, y, left - 1, y);
            String label = tickLabel(ys, t * stride);
            g.drawString(label, left - 7 - textWidth(FONT, label), y + 4);
        }
        g.drawString(yName, 4, top - 4);
    }

    static final Font TITLE_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 13);
    static final Font FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

    static int textWidth(Font font, String text) {
        BufferedImage scratch = new BufferedImage(1, 1, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = scratch.createGraphics();
        try {
            return g.getFontMetrics(font).stringWidth(text);
        } finally {
            g.dispose();
        }
    }

    static String fmt(double x) {
        if (Double.isNaN(x) || Double.isInfinite(x)) {
            return "n/a";
        }
        // six significant digits: a legend, not a dump (float arithmetic shows as 8.01, not 8.010000228881836)
        return CdlWriter.real(
                new java.math.BigDecimal(x).round(new java.math.MathContext(6)).doubleValue(), false, false);
    }
}
