package io.nczarr.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.cdm.NcZarrFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import ucar.nc2.NetcdfFile;

/**
 * The one manifest path of the command line: {@code nczarr json URL} and {@code nczarr dump --format json
 * [URL]}. The manifest is always printed (an open failure as {@code {"error": ...}}, a variable that cannot
 * be read with {@code "data": {"error": ...}}, as the conformance comparer expects); the exit status is 1
 * when anything failed, with one line per failure on stderr.
 */
final class JsonCommand {
    private JsonCommand() {}

    static int run(String url, PrintStream out, PrintStream err) {
        ObjectNode manifest;
        int rc = 0;
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            nc.sendIospMessage(new ConsoleProgress(err));
            manifest = Manifest.of(nc, Main.nameOf(url));
            List<String> failed = readErrors(manifest);
            for (String f : failed) {
                err.println("nczarr json: " + Main.message(new IOException(f), List.of(url)));
            }
            rc = failed.isEmpty() ? 0 : 1;
        } catch (IOException | RuntimeException e) {
            manifest = Manifest.MAPPER.createObjectNode();
            manifest.put("error", String.valueOf(e.getMessage()));
            // the manifest keeps the error (the conformance comparer reads it); scripts get the exit status
            err.println("nczarr json: " + Main.message(e, List.of(url)));
            rc = 1;
        }
        try {
            out.println(Manifest.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(manifest));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return rc;
    }

    /** "path: message" of every variable (and member) whose data could not be read, in manifest order. */
    static List<String> readErrors(ObjectNode manifest) {
        List<String> out = new ArrayList<>();
        for (var v : manifest.path("variables").properties()) {
            JsonNode error = v.getValue().path("data").get("error");
            if (error != null) {
                out.add(v.getKey() + ": " + error.asText());
            }
        }
        return out;
    }
}
