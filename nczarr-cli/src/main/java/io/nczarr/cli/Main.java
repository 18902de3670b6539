package io.nczarr.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.error.Redaction;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import ucar.nc2.NCdumpW;
import ucar.nc2.NetcdfFile;

/** The {@code ./nczarr} command line: dump, json. */
public final class Main {
    private Main() {}

    static final String USAGE = String.join(
            "\n",
            "usage: nczarr <command> [options] [URL]",
            "",
            "commands:",
            "  dump [-h] [-c] [-v var,...] [URL]  print CDL like ncdump (-h header only, -c coordinate values;",
            "                                     without URL: the bundled sample test-data/sample.file)",
            "  json URL                           print the conformance manifest (shared/conformance/SCHEMA.md)",
            "  ls URL                             list variables: type, dimensions, chunks, codecs",
            "  bench URL [var ...] [--repeat N]   read variables whole; print MB/s, chunks/s, peak heap",
            "  demo                               read the sample through a loopback S3 server (mode=s3)",
            "",
            "URL: a path to a directory or .zip store, or a netcdf-c URL such as",
            "     file:///data/x.file#mode=nczarr,file   file:///data/x.zip#mode=zarr,zip");

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-help") || args[0].equals("help")) {
            out.println(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        String cmd = args[0];
        List<String> rest = new ArrayList<>(List.of(args).subList(1, args.length));
        try {
            switch (cmd) {
                case "dump":
                    return dump(rest, out, err);
                case "json":
                    return json(rest, out, err);
                case "bench":
                    return Bench.run(rest, out, err);
                case "ls":
                    return Ls.run(rest, out);
                case "demo":
                    return S3Demo.run(rest, out, err);
                default:
                    err.println("nczarr: unknown command '" + cmd + "'\n" + USAGE);
                    return 2;
            }
        } catch (IllegalArgumentException e) {
            err.println("nczarr: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("nczarr: " + e.getMessage());
            return 1;
        }
    }

    private static int dump(List<String> args, PrintStream out, PrintStream err) {
        NCdumpW.WantValues want = NCdumpW.WantValues.all;
        String vars = null;
        String url = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "-h":
                    want = NCdumpW.WantValues.none;
                    break;
                case "-c":
                    want = NCdumpW.WantValues.coordsOnly;
                    break;
                case "-v":
                    if (i + 1 >= args.size()) {
                        throw new IllegalArgumentException("-v needs a variable list");
                    }
                    vars = args.get(++i).replace(',', ';');
                    break;
                default:
                    if (a.startsWith("-") && a.length() > 1) {
                        throw new IllegalArgumentException("unknown dump option " + a);
                    }
                    url = a;
            }
        }
        if (url == null) {
            url = defaultSample();
        }
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            nc.sendIospMessage(new ConsoleProgress(err));
            Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
            NCdumpW.print(nc, w, vars != null ? NCdumpW.WantValues.all : want, false, false, vars, null);
            w.flush();
            return 0;
        } catch (IOException | RuntimeException e) {
            String msg = String.valueOf(e.getMessage());
            String shown = Redaction.redact(url);
            // our messages start with the (redacted) dataset already; others get it added
            err.println("nczarr: " + (msg.contains(shown) ? msg : "cannot dump " + shown + ": " + msg));
            return 1;
        }
    }

    private static int json(List<String> args, PrintStream out, PrintStream err) {
        if (args.size() != 1) {
            throw new IllegalArgumentException("json needs exactly one URL");
        }
        String url = args.get(0);
        ObjectNode manifest;
        int rc = 0;
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            nc.sendIospMessage(new ConsoleProgress(err));
            manifest = Manifest.of(nc, nameOf(url));
        } catch (IOException | RuntimeException e) {
            manifest = Manifest.MAPPER.createObjectNode();
            manifest.put("error", String.valueOf(e.getMessage()));
            rc = 1;
        }
        try {
            out.println(Manifest.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(manifest));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return rc;
    }

    /** The dataset name: last path segment without fragment and extension. */
    static String nameOf(String url) {
        String s = url;
        int hash = s.indexOf('#');
        if (hash >= 0) {
            s = s.substring(0, hash);
        }
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        s = s.substring(s.lastIndexOf('/') + 1);
        int dot = s.indexOf('.');
        return dot > 0 ? s.substring(0, dot) : s;
    }

    /** test-data/sample.file under the installation ({@code nczarr.home}, set by the launcher). */
    static String defaultSample() {
        String home = System.getProperty("nczarr.home", ".");
        Path p = Paths.get(home, "test-data", "sample.file");
        if (!Files.isDirectory(p)) {
            throw new IllegalArgumentException("no URL given and the bundled sample " + p + " is missing");
        }
        return p.toUri() + "#mode=nczarr,file";
    }
}
