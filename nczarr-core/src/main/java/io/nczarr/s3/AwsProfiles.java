package io.nczarr.s3;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The profiles of an AWS config file and credentials file, read the way both the AWS CLI and
 * netcdf-c read them: {@code [name]} or {@code [profile name]} sections of {@code key = value}
 * lines ({@code #} and {@code ;} start comments, keys are case-insensitive, indented lines under
 * a key with an empty value are its sub-keys {@code key.sub}). A key in the credentials file
 * wins over the same key in the config file. Missing files are empty; unreadable ones are errors.
 * Values are kept in memory only; {@link #toString()} shows profile names, never values.
 */
public final class AwsProfiles {

    /** One profile's keys (lower case) and the files it came from. */
    public record Profile(String name, Map<String, String> properties, List<Path> files) {
        public Profile {
            properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
            files = List.copyOf(files);
        }

        /** A value, or {@code null}; keys are case-insensitive. */
        public String get(String key) {
            String v = properties.get(key.toLowerCase(Locale.ROOT));
            return v == null || v.isEmpty() ? null : v;
        }

        @Override
        public String toString() {
            return "profile '" + name + "' (" + properties.keySet() + " from " + files + ")";
        }
    }

    private final Path configFile;
    private final Path credentialsFile;
    private final Map<String, Map<String, String>> values = new LinkedHashMap<>();
    private final Map<String, List<Path>> sources = new LinkedHashMap<>();

    private AwsProfiles(Path configFile, Path credentialsFile) {
        this.configFile = configFile;
        this.credentialsFile = credentialsFile;
    }

    /** Reads both files (the credentials file last, so its keys win). */
    public static AwsProfiles load(Path configFile, Path credentialsFile) throws IOException {
        AwsProfiles p = new AwsProfiles(configFile, credentialsFile);
        p.read(configFile);
        p.read(credentialsFile);
        return p;
    }

    /** The profiles of {@link AwsEnvironment#configFile()} and {@link AwsEnvironment#credentialsFile()}. */
    public static AwsProfiles load(AwsEnvironment env) throws IOException {
        return load(env.configFile(), env.credentialsFile());
    }

    public Path configFile() {
        return configFile;
    }

    public Path credentialsFile() {
        return credentialsFile;
    }

    public Set<String> names() {
        return Collections.unmodifiableSet(values.keySet());
    }

    /** A profile, or {@code null} when neither file defines it. */
    public Profile profile(String name) {
        Map<String, String> v = values.get(name);
        return v == null ? null : new Profile(name, v, sources.get(name));
    }

    private void read(Path file) throws IOException {
        if (file == null || !Files.exists(file)) {
            return;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IOException("cannot read AWS profile file " + file + ": " + e.getMessage(), e);
        }
        Map<String, String> section = null;
        String parentKey = null;
        int n = 0;
        for (String raw : lines) {
            n++;
            String line = stripComment(raw);
            if (line.isBlank()) {
                continue;
            }
            boolean indented = Character.isWhitespace(line.charAt(0));
            line = line.trim();
            if (line.startsWith("[")) {
                if (!line.endsWith("]")) {
                    throw new IOException(file + ":" + n + ": malformed profile header (no closing ']')");
                }
                String name = line.substring(1, line.length() - 1).trim();
                if (name.startsWith("profile ") || name.startsWith("profile\t")) {
                    name = name.substring(8).trim();
                }
                if (name.isEmpty()) {
                    throw new IOException(file + ":" + n + ": empty profile name");
                }
                section = values.computeIfAbsent(name, k -> new LinkedHashMap<>());
                List<Path> from = sources.computeIfAbsent(name, k -> new java.util.ArrayList<>());
                if (!from.contains(file)) {
                    from.add(file);
                }
                parentKey = null;
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                // the line number only: the line may hold a secret
                throw new IOException(file + ":" + n + ": expected 'key = value' or '[profile]'");
            }
            if (section == null) {
                throw new IOException(file + ":" + n + ": 'key = value' before any [profile] header");
            }
            String key = line.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(eq + 1).trim();
            if (indented && parentKey != null) {
                section.put(parentKey + "." + key, value);
                continue;
            }
            section.put(key, value);
            parentKey = value.isEmpty() ? key : null;
        }
    }

    /** Full-line comments, and inline comments after whitespace. */
    private static String stripComment(String line) {
        String t = line.stripLeading();
        if (t.startsWith("#") || t.startsWith(";")) {
            return "";
        }
        for (int i = 1; i < line.length(); i++) {
            char c = line.charAt(i);
            if ((c == '#' || c == ';') && Character.isWhitespace(line.charAt(i - 1))) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    @Override
    public String toString() {
        return "AwsProfiles" + values.keySet() + " from " + configFile + ", " + credentialsFile;
    }
}
