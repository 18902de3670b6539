package io.nczarr.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/** The command line's help texts: {@code nczarr --help} and {@code nczarr COMMAND --help}. */
final class Help {
    private Help() {}

    /** Each command's own help; the first line is its usage line. */
    static final Map<String, String> COMMANDS = new LinkedHashMap<>();

    static {
        COMMANDS.put(
                "dump",
                String.join(
                        "\n",
                        "usage: nczarr dump [-h] [-c] [-v var,...] [--format cdl|json] [URL]",
                        "",
                        "Print the dataset as CDL, as ncdump 4.9 does (ncgen reads it back). Without a URL: the",
                        "bundled sample test-data/sample.file.",
                        "  -h           header only (no data; wins over -c)",
                        "  -c           data of the coordinate variables only",
                        "  -v a,/g/b    data of these variables only (short names or full paths)",
                        "  --format F   cdl (default) or json: the conformance manifest, as nczarr json prints it",
                        "  --debug      the stack trace of a failure"));
        COMMANDS.put(
                "json",
                String.join(
                        "\n",
                        "usage: nczarr json URL",
                        "",
                        "Print the conformance manifest (zarr-conformance-manifest/1: structure, attributes and",
                        "data digests of every variable). Exit status 1 when the dataset or any variable could",
                        "not be read; the manifest is still printed, with the error in its \"error\" members."));
        COMMANDS.put(
                "ls",
                String.join(
                        "\n",
                        "usage: nczarr ls URL",
                        "",
                        "One line per variable: path, type, dimensions, chunk shape and codecs (filters then",
                        "compressor for Zarr v2; the codec chain for Zarr v3, with shard and inner chunk shapes).",
                        "For an Icechunk repository (#mode=zarr,icechunk) the first line names the snapshot read."));
        COMMANDS.put(
                "log",
                String.join(
                        "\n",
                        "usage: nczarr log URL",
                        "",
                        "An Icechunk repository's branches, tags and virtual chunk containers, then the history of",
                        "the selected snapshot (tip of main, or &branch=B, &tag=T, &snapshot=ID in the fragment)",
                        "back to the first commit, newest first: id, time, message, metadata, like git log."));
        COMMANDS.put(
                "bench",
                String.join(
                        "\n",
                        "usage: nczarr bench URL [var ...] [--repeat N]",
                        "",
                        "Read variables whole through netCDF-Java (all variables without names) and print",
                        "decoded MB/s (10^6 bytes), chunks/s and peak heap.",
                        "  --repeat N   read each variable N times (default 3) and report the best"));
        COMMANDS.put(
                "demo",
                String.join(
                        "\n",
                        "usage: nczarr demo",
                        "",
                        "Start an S3 server on 127.0.0.1, upload the bundled sample, open it by an s3-mode URL,",
                        "print its CDL header, a few values and the requests it took, and stop the server."));
        COMMANDS.put(
                "quicklook",
                String.join(
                        "\n",
                        "usage: nczarr quicklook URL VAR [--index dim=i,...] [--range min,max]"
                                + " [--palette viridis|diverging] [-o out.png]",
                        "",
                        "Write a PNG of a 2-D slice of VAR (its last two dimensions; the others at index 0",
                        "unless given) of the CF-enhanced values: axes labelled with coordinate values, the",
                        "latitude-like row axis upwards when its coordinate increases, a colour bar and a legend.",
                        "Transparent cells are fill values, missing values or NaN.",
                        "  --index d=i,...      index of the other dimensions (default 0)",
                        "  --range min,max      the values at the ends of the colour bar (default: the slice's",
                        "                       min and max; values beyond get the end colours)",
                        "  --palette P          viridis (default) or diverging (blue-white-red, white at the",
                        "                       middle; without --range symmetric about 0, for anomalies)",
                        "  -o FILE              the PNG (default VAR.png)"));
        COMMANDS.put(
                "serve",
                String.join(
                        "\n",
                        "usage: nczarr serve DIR [--port N] [--bucket NAME]",
                        "",
                        "Serve DIR read-only as one S3 bucket on 127.0.0.1 until Ctrl-C; print one URL per dataset",
                        "found (http://127.0.0.1:N/NAME/...#mode=...,s3&aws.profile=none) and profile settings.",
                        "  --port N        the port (default: a free one)",
                        "  --bucket NAME   the bucket name (default data)"));
    }

    static final String USAGE = String.join(
            "\n",
            "usage: nczarr <command> [options] [URL]",
            "       nczarr <command> --help | nczarr --help | nczarr --version",
            "",
            "commands:",
            "  dump [-h] [-c] [-v var,...] [URL]  print CDL as ncdump 4.9 does (ncgen reads it back); -h header only,",
            "                                     -c coordinate values, -v these variables' data only;",
            "                                     without URL: the bundled sample test-data/sample.file",
            "  json URL                           print the conformance manifest (zarr-conformance-manifest/1)",
            "  ls URL                             list variables: type, dimensions, chunks, codecs",
            "  log URL                            an Icechunk repository's branches, tags and commit history",
            "  bench URL [var ...] [--repeat N]   read variables whole; print MB/s, chunks/s, peak heap",
            "  demo                               read the sample through a loopback S3 server (mode=s3)",
            "  quicklook URL VAR [--index dim=i,...] [--range min,max] [--palette viridis|diverging] [-o out.png]",
            "                                     PNG of a 2-D slice (last two dimensions; CF-enhanced values,",
            "                                     colour bar, legend; fill and NaN transparent)",
            "  serve DIR [--port N] [--bucket NAME]",
            "                                     serve DIR read-only as an S3 bucket (default 'data') on",
            "                                     127.0.0.1; prints the URLs and profile settings",
            "",
            "--debug (any command): print the stack trace of a failure. Exit status: 0 done, 1 failed (one",
            "line on stderr naming the dataset, object and cause), 2 wrong command line.",
            "",
            "URL: a path to a directory or .zip store, or a netcdf-c URL such as",
            "     file:///data/x.file#mode=nczarr,file   file:///data/x.zip#mode=zarr,zip",
            "     s3://bucket/key#mode=zarr,s3   https://host/x.zarr#mode=zarr   (docs/user-guide.md)",
            "",
            "Portable form (any OS with Java 17+): java -jar nczarr-cli/target/nczarr-cli.jar <command> ...");

    /** "nczarr 0.9.0-SNAPSHOT (netCDF-Java cdm 4.5.5, Java 17.0.15)". */
    static String version() {
        Properties p = new Properties();
        try (InputStream in = Help.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // an unreadable resource: the version stays unknown
        }
        return "nczarr " + p.getProperty("version", "(unknown version)") + " (netCDF-Java cdm "
                + p.getProperty("cdm", "?") + ", Java " + System.getProperty("java.version") + ")";
    }

    /** The usage line of a command (the first line of its help). */
    static String usageLine(String command) {
        String h = COMMANDS.get(command);
        return h == null
                ? USAGE.lines().findFirst().orElse("")
                : h.lines().findFirst().orElse("");
    }
}
