package io.nczarr.cli.bench;

import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.cli.bench.CompareBenchmark.Cell;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.testkit.s3.CountingProxy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.TreeSet;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/** Our side of the comparison, in this JVM: timed reads and opens, each result's sha256. */
final class OursReads {
    private OursReads() {}

    /**
     * Open once, {@code warmups} untimed reads, then the best of {@code iters} reads; with a proxy, the
     * requests of the open and of the last timed read are counted.
     */
    static Cell timedReads(
            String url, String var, int[][] section, NcZarrOptions options, int iters, int warmups, CountingProxy proxy)
            throws Exception {
        String sha;
        double best = Double.MAX_VALUE;
        CountingProxy.Counts open = null;
        CountingProxy.Counts read = null;
        if (proxy != null) {
            proxy.reset();
        }
        try (NetcdfFile nc = NcZarrFiles.open(url, options)) {
            Variable v = variable(nc, var, url);
            if (proxy != null) {
                open = proxy.counts();
            }
            sha = sha256(read(v, section));
            for (int i = 1; i < warmups; i++) {
                read(v, section);
            }
            for (int i = 0; i < iters; i++) {
                boolean last = i == iters - 1;
                if (proxy != null && last) {
                    proxy.reset();
                }
                long t0 = System.nanoTime();
                Array a = read(v, section);
                best = Math.min(best, (System.nanoTime() - t0) / 1e9);
                if (proxy != null && last) {
                    read = proxy.counts();
                }
                if (last && !sha256(a).equals(sha)) {
                    sha = "differs-between-runs";
                }
            }
        }
        return new Cell(best, sha, open, read);
    }

    private static Array read(Variable v, int[][] section) throws Exception {
        return section == null ? v.read() : v.read(section[0], section[1]);
    }

    /** Best of {@code iters} fresh opens after {@code warmups} others; the digest of the sorted "name shape" lines. */
    static Cell timedOpens(String url, int iters, int warmups) throws IOException {
        String sha = names(url);
        for (int i = 1; i < warmups; i++) {
            if (!names(url).equals(sha)) {
                sha = "differs-between-runs";
            }
        }
        double best = Double.MAX_VALUE;
        for (int i = 0; i < iters; i++) {
            long t0 = System.nanoTime();
            String s = names(url);
            best = Math.min(best, (System.nanoTime() - t0) / 1e9);
            if (!s.equals(sha)) {
                sha = "differs-between-runs";
            }
        }
        return new Cell(best, sha);
    }

    private static String names(String url) throws IOException {
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            TreeSet<String> lines = new TreeSet<>();
            for (Variable v : nc.getVariables()) {
                StringBuilder s = new StringBuilder(v.getShortName()).append(' ');
                int[] shape = v.getShape();
                for (int i = 0; i < shape.length; i++) {
                    s.append(i == 0 ? "" : ",").append(shape[i]);
                }
                lines.add(s.toString());
            }
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(String.join("\n", lines).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Variable variable(NetcdfFile nc, String var, String url) throws IOException {
        Variable v = nc.findVariable(var);
        if (v == null) {
            throw new IOException("no variable " + var + " in " + url);
        }
        return v;
    }

    /**
     * The sum of a float variable's values over {@code section} ({@code null}: the whole variable), read through
     * {@link NcZarrFiles}: the checksum the reference-benchmarks compare with the Python anchors.
     */
    static double floatSum(String url, String var, String section) throws IOException {
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            Variable v = nc.findVariable(var);
            Array a;
            try {
                a = section == null ? v.read() : v.read(section);
            } catch (ucar.ma2.InvalidRangeException e) {
                throw new IllegalArgumentException(section, e);
            }
            double sum = 0;
            ucar.ma2.IndexIterator it = a.getIndexIterator();
            while (it.hasNext()) {
                sum += it.getFloatNext();
            }
            return sum;
        }
    }

    /** sha256 of the values as little-endian bytes of their type, C order (float and double only). */
    static String sha256(Array a) throws NoSuchAlgorithmException {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        ByteBuffer b = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
        Object storage = a.get1DJavaArray(a.getElementType());
        if (storage instanceof float[] f) {
            for (float x : f) {
                b.putInt(Float.floatToRawIntBits(x));
                if (!b.hasRemaining()) {
                    md.update(b.array(), 0, b.position());
                    b.clear();
                }
            }
        } else if (storage instanceof double[] d) {
            for (double x : d) {
                b.putLong(Double.doubleToRawLongBits(x));
                if (!b.hasRemaining()) {
                    md.update(b.array(), 0, b.position());
                    b.clear();
                }
            }
        } else {
            throw new IllegalArgumentException("sha256: float or double values only, not " + a.getElementType());
        }
        md.update(b.array(), 0, b.position());
        return HexFormat.of().formatHex(md.digest());
    }
}
