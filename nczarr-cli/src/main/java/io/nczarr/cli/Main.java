package io.nczarr.cli;

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

    static final String USAGE = Help.USAGE;

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        List<String> all = new ArrayList<>(List.of(args));
        boolean debug = all.remove("--debug");
        if (all.isEmpty()) {
            err.println(USAGE);
            return 2;
        }
        String cmd = all.get(0);
        List<String> rest = new ArrayList<>(all.subList(1, all.size()));
        if (HELP.contains(cmd)) {
            if (!rest.isEmpty() && Help.COMMANDS.containsKey(rest.get(0))) {
                out.println(Help.COMMANDS.get(rest.get(0)));
            } else {
                out.println(USAGE);
            }
            return 0;
        }
        if (cmd.equals("--version") || cmd.equals("version")) {
            out.println(Help.version());
            return 0;
        }
        if (!Help.COMMANDS.containsKey(cmd)) {
            err.println("nczarr: unknown " + (cmd.startsWith("-") ? "option" : "command") + " '" + cmd
                    + "' (nczarr --help lists the commands)");
            return 2;
        }
        if (rest.contains("--help") || rest.contains("-help")) {
            out.println(Help.COMMANDS.get(cmd));
            return 0;
        }
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
                case "log":
                    return IcechunkLogCommand.run(rest, out);
                case "demo":
                    return S3Demo.run(rest, out, err);
                case "serve":
                    return Serve.run(rest, out);
                default:
                    return Quicklook.run(rest, out);
            }
        } catch (UsageException e) {
            err.println("nczarr " + cmd + ": " + oneLine(e.getMessage()));
            err.println(Help.usageLine(cmd) + "   (nczarr " + cmd + " --help)");
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

    private static final List<String> HELP = List.of("--help", "-help", "-h", "help");

    /** A whole-number option value, or a usage error naming the option. */
    static int intOption(String option, String value, int min) {
        int n;
        try {
            n = Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new UsageException(option + " needs a whole number, not '" + value + "'");
        }
        if (n < min) {
            throw new UsageException(option + " needs a number of at least " + min + ", not " + n);
        }
        return n;
    }

    /** The value after an option, or a usage error naming the option. */
    static String optionValue(List<String> args, int i) {
        if (i + 1 >= args.size()) {
            throw new UsageException(args.get(i) + " needs a value");
        }
        return args.get(i + 1);
    }

    /** A wrong command line (exit status 2). */
    static final class UsageException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /** An output file that cannot be written: the message names the file, not the dataset. */
    static final class OutputException extends IOException {
        private static final long serialVersionUID = 1L;

        OutputException(String message) {
            super(message);
        }
    }

    /** The one-line message of a failure: the dataset is named once (our exceptions start with it). */
    static String message(Throwable e, List<String> args) {
        if (e instanceof OutputException) {
            return oneLine(e.getMessage());
        }
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
        String format = "cdl";
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "-h":
                    want = CdlWriter.Values.NONE;
                    break;
                case "-c":
                    // ncdump: -h wins over -c whatever their order
                    if (want != CdlWriter.Values.NONE) {
                        want = CdlWriter.Values.COORDINATES;
                    }
                    break;
                case "--format":
                    format = optionValue(args, i++);
                    if (!format.equals("cdl") && !format.equals("json")) {
                        throw new UsageException("--format is cdl or json, not '" + format + "'");
                    }
                    break;
                case "-v":
                    if (i + 1 >= args.size()) {
                        throw new UsageException("-v needs a variable list");
                    }
                    vars = List.of(args.get(++i).split(","));
                    break;
                default:
                    if (a.startsWith("-") && a.length() > 1) {
                        throw new UsageException("unknown option " + a);
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
        if (format.equals("json")) {
            if (want != CdlWriter.Values.ALL || vars != null) {
                throw new UsageException("--format json is the whole manifest: no -h, -c or -v");
            }
            return JsonCommand.run(url, out, err);
        }
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            nc.sendIospMessage(new ConsoleProgress(err));
            Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
            CdlWriter.write(nc, cdlName(url), want, vars, w);
            w.flush();
            return 0;
        }
    }

    private static int json(List<String> args, PrintStream out, PrintStream err) {
        for (String a : args) {
            if (a.startsWith("-") && a.length() > 1) {
                throw new UsageException("unknown option " + a);
            }
        }
        if (args.size() != 1) {
            throw new UsageException("json needs exactly one URL");
        }
        return JsonCommand.run(args.get(0), out, err);
    }

    /**
     * The name {@code dump} gives the dataset, as ncdump does: the store's last path segment without its last
     * extension ({@code nczarr_groups.file/.zgroup} gives {@code nczarr_groups}, {@code x.twin.nc} gives
     * {@code x.twin}); a metadata object named in the URL ({@code .zgroup}, {@code zarr.json}) names its folder.
     */
    static String cdlName(String url) {
        String s = url;
        int hash = s.indexOf('#');
        if (hash >= 0) {
            s = s.substring(0, hash);
        }
        int query = s.indexOf('?');
        if (query >= 0 && s.contains("://")) {
            s = s.substring(0, query);
        }
        List<String> segments = new ArrayList<>(List.of(s.replace('\\', '/').split("/+")));
        segments.removeIf(String::isEmpty);
        while (segments.size() > 1) {
            String last = segments.get(segments.size() - 1);
            if (last.startsWith(".") || last.equals("zarr.json")) {
                segments.remove(segments.size() - 1);
            } else {
                break;
            }
        }
        String name = segments.isEmpty() ? "dataset" : segments.get(segments.size() - 1);
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
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

    /**
     * The installation: {@code nczarr.home} (set by the launcher), else the checkout this jar was built in
     * ({@code java -jar nczarr-cli/target/nczarr-cli.jar}), else the working directory.
     */
    static Path home() {
        String prop = System.getProperty("nczarr.home");
        if (prop != null) {
            return Paths.get(prop);
        }
        try {
            Path p = Paths.get(Main.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            for (int up = 0; up < 3 && p != null; up++) {
                p = p.getParent();
            }
            if (p != null && Files.isDirectory(p.resolve("test-data"))) {
                return p;
            }
        } catch (java.net.URISyntaxException | RuntimeException e) {
            // no code source location: the working directory
        }
        return Paths.get(".");
    }

    /** test-data/sample.file under the installation ({@link #home()}). */
    static String defaultSample() {
        Path p = home().resolve("test-data").resolve("sample.file");
        if (!Files.isDirectory(p)) {
            throw new IllegalArgumentException("no URL given and the bundled sample " + p + " is missing");
        }
        return p.toUri() + "#mode=nczarr,file";
    }
}
