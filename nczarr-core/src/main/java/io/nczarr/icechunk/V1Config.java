package io.nczarr.icechunk;

import io.nczarr.error.MetadataException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * The virtual chunk containers a spec-1 repository declares in its {@code config.yaml} (icechunk 1.x): the
 * block {@code virtual_chunk_containers:}, a map whose keys are container names (icechunk 1.x) or URL prefixes
 * (icechunk's {@code set_virtual_chunk_container}, VirtualiZarr 2.x), each entry with {@code name:} (may be
 * {@code null}: the key names it) and {@code url_prefix:}. The rest of the file (storage settings, each
 * container's {@code store:}) is not needed to read and is skipped.
 *
 * <p>Read by hand rather than with a YAML library (none is on the classpath, and the drop-in jar stays small):
 * block style as icechunk writes it (serde_yaml), plain, single- and double-quoted scalars, comments; the file
 * is bounded by the metadata size limit before it gets here. A flow-style or otherwise unexpected block is an
 * error naming the repository and the line, never a silently empty list.
 */
final class V1Config {
    static final String KEY = "config.yaml";
    private static final String BLOCK = "virtual_chunk_containers:";

    private V1Config() {}

    /** Container name → URL prefix. */
    static Map<String, String> containers(byte[] yaml, String repository) throws MetadataException {
        String[] lines = new String(yaml, StandardCharsets.UTF_8).split("\r?\n", -1);
        Map<String, String> out = new TreeMap<>();
        int i = 0;
        while (i < lines.length && !lines[i].startsWith(BLOCK)) {
            i++;
        }
        if (i == lines.length) {
            return out;
        }
        String rest = stripComment(lines[i].substring(BLOCK.length())).trim();
        if (!rest.isEmpty()) {
            if (rest.equals("null") || rest.equals("~") || rest.equals("{}")) {
                return out;
            }
            throw bad(repository, i, "a flow-style virtual_chunk_containers (" + rest + ") is not supported");
        }
        int entryIndent = -1;
        String key = null;
        String name = null;
        String prefix = null;
        int fieldIndent = -1;
        for (i++; i < lines.length; i++) {
            String line = lines[i];
            String content = stripComment(line);
            if (content.isBlank()) {
                continue;
            }
            int indent = indentOf(line);
            if (indent == 0) {
                break; // the next top-level key
            }
            if (entryIndent < 0) {
                entryIndent = indent;
            }
            if (indent == entryIndent) {
                add(out, key, name, prefix, repository, i);
                String t = content.trim();
                if (!t.endsWith(":")) {
                    throw bad(repository, i, "expected a container key ending in ':', found '" + t + "'");
                }
                key = unquote(t.substring(0, t.length() - 1).trim(), repository, i);
                name = null;
                prefix = null;
                fieldIndent = -1;
            } else if (indent > entryIndent && key != null) {
                if (fieldIndent < 0) {
                    fieldIndent = indent;
                }
                if (indent == fieldIndent) {
                    String t = content.trim();
                    if (t.startsWith("name:")) {
                        name = unquote(t.substring(5).trim(), repository, i);
                    } else if (t.startsWith("url_prefix:")) {
                        prefix = unquote(t.substring(11).trim(), repository, i);
                    }
                }
            } else {
                throw bad(repository, i, "unexpected indentation in virtual_chunk_containers");
            }
        }
        add(out, key, name, prefix, repository, i);
        return out;
    }

    private static void add(
            Map<String, String> out, String key, String name, String prefix, String repository, int line)
            throws MetadataException {
        if (key == null) {
            return;
        }
        if (prefix == null || prefix.isEmpty()) {
            throw bad(repository, line, "virtual chunk container '" + key + "' has no url_prefix");
        }
        out.put(name == null || name.isEmpty() ? key : name, prefix);
    }

    private static int indentOf(String line) {
        int n = 0;
        while (n < line.length() && line.charAt(n) == ' ') {
            n++;
        }
        return n;
    }

    /** The line without a comment: a {@code #} at its start or after a space, outside quotes. */
    private static String stripComment(String line) {
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '#' && (i == 0 || line.charAt(i - 1) == ' ')) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    /** A scalar's value: {@code null} for {@code null}, {@code ~} or nothing. */
    static String unquote(String v, String repository, int line) throws MetadataException {
        if (v.isEmpty() || v.equals("null") || v.equals("~") || v.equals("Null") || v.equals("NULL")) {
            return null;
        }
        char q = v.charAt(0);
        if (q != '\'' && q != '"') {
            return v;
        }
        if (v.length() < 2 || v.charAt(v.length() - 1) != q) {
            throw bad(repository, line, "unterminated quoted value " + v);
        }
        String body = v.substring(1, v.length() - 1);
        if (q == '\'') {
            return body.replace("''", "'");
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '\\' && i + 1 < body.length()) {
                char e = body.charAt(++i);
                switch (e) {
                    case '"', '\\', '/' -> b.append(e);
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    default -> throw bad(repository, line, "unsupported escape \\" + e + " in " + v);
                }
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static MetadataException bad(String repository, int line, String why) {
        return new MetadataException(repository, KEY, "line " + (line + 1) + ": " + why);
    }
}
