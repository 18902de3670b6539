package io.nczarr.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.error.Redaction;
import java.io.BufferedWriter;
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
import ucar.nc2.NetcdfFile;

/** The {@code ./nczarr} command line: dump, json. */
public final class Main {
    private Main() {}

    static final String USAGE = String.join(
            "\n",
            "usage: nczarr <command> [options] [URL]",
            "",
            "commands:",
            "  dump [-h] [-c] [-v var,...] [URL]  print CDL as ncdump 4.9 does (ncgen reads it back); -h header only,",
            "                                     -c coordinate values, -v these variables' data only;",
            "                                     without URL: the bundled sample test-data/sample.file",
            "  json URL                           print the conformance manifest (shared/conformance/SCHEMA.md)",
            "  ls URL                             list variables: type, dimensions, chunks, codecs",
            "  bench URL [var ...] [--repeat N]   read variables whole; print MB/s, chunks/s, peak heap",
            "  demo                               read the sample through a loopback S3 server (mode=s3)",
            "  quicklook URL VAR [--index dim=i,...] [-o out.png]",
            "                                     PNG of a 2-D slice (last two dimensions; CF-enhanced values,",
            "                                     colour bar, legend; fill and NaN transparent)",
            "  serve DIR [--port N]               serve DIR read-only as S3 bucket 'data' on 127.0.0.1; prints the",
            "                                     URLs (http://127.0.0.1:N/data/...#mode=...,s3) and profile settings",
            "",
            "--debug (any command): print the stack trace of a failure.",
            "",
            "URL: a path to a directory or .zip store, or a netcdf-c URL such as",
            "     file:///data/x.file#mode=nczarr,file   file:///data/x.zip#mode=zarr,zip");

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        List<String> all = new ArrayList<>(List.of(args));
        boolean debug = all.remove("--debug");
        if (all.isEmpty()
                || all.get(0).equals("--help")
                || all.get(0).equals("-help")
                || all.get(0).equals("help")) {
            out.println(USAGE);
            return all.isEmpty() ? 2 : 0;
        }
        String cmd = all.get(0);
        List<String> rest = new ArrayList<>(all.subList(1, all.size()));
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
                case "serve":
                    return Serve.run(rest, out);
                case "quicklook":
                    return Quicklook.run(rest, out);
                default:
                    err.println("nczarr: unknown command '" + cmd + "'\n" + USAGE);
                    return 2;
            }
        } catch (UsageException e) {
            err.println("nczarr " + cmd + ": " + oneLine(e.getMessage()));
            return 2;
        } catch (Exception | Error e) {
            // every failure: one line (naming the dataset, key and cause, as our exceptions do) and a
            // non-zero exit; the stack trace only with --debug
            err.println("nczarr " + cmd + ": " + message(e, rest));
            if (debug) {
                e.printStackTrace(err);
            }
            return 1;
        } finally {
            out.flush();
        }
    }

    /** A wrong command line (exit status 2). */
    static final class UsageException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /** The one-line message of a failure: the dataset is named once (our exceptions start with it). */
    static String message(Throwable e, List<String> args) {
        String msg = e.getMessage();
        if (msg == null || msg.isBlank()) {
            msg = e.getClass().getSimpleName();
        } else if (!(e instanceof IOException) && !(e instanceof IllegalArgumentException)) {
            msg = e.getClass().getSimpleName() + ": " + msg;
        }
        String url = null;
        for (String a : args) {
            if (!a.startsWith("-") && (a.contains("/") || a.contains(".") || a.contains(":"))) {
                url = a;
                break;
            }
        }
        if (url != null) {
            String shown = Redaction.redact(url);
            if (!msg.contains(shown) && !msg.contains(nameOf(url))) {
                msg = shown + ": " + msg;
            }
        }
        return oneLine(msg);
    }

    static String oneLine(String s) {
        return s == null ? "" : s.strip().replaceAll("\\s*\\R\\s*", "; ");
    }

    private static int dump(List<String> args, PrintStream out, PrintStream err) throws IOException {
        CdlWriter.Values want = CdlWriter.Values.ALL;
        List<String> vars = null;
        String url = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "-h":
                    want = CdlWriter.Values.NONE;
                    break;
                case "-c":
                    want = CdlWriter.Values.COORDINATES;
                    break;
                case "-v":
                    if (i + 1 >= args.size()) {
                        throw new UsageException("-v needs a variable list");
                    }
                    vars = List.of(args.get(++i).split(","));
                    break;
                default:
                    if (a.startsWith("-") && a.length() > 1) {
                        throw new UsageException("unknown dump option " + a);
                    }
                    if (url != null) {
                        throw new UsageException("dump takes one URL");
                    }
                    url = a;
            }
        }
        if (url == null) {
            url = defaultSample();
        }
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            nc.sendIospMessage(new ConsoleProgress(err));
            Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
            CdlWriter.write(nc, nameOf(url), want, vars, w);
            w.flush();
            return 0;
        }
    }

    private static int json(List<String> args, PrintStream out, PrintStream err) {
        if (args.size() != 1) {
            throw new UsageException("json needs exactly one URL");
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
            // the manifest keeps the error (the conformance comparer reads it); scripts get the exit status
            err.println("nczarr json: " + message(e, args));
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
