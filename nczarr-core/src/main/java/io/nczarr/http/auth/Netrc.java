package io.nczarr.http.auth;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The entries of a {@code .netrc} file: {@code machine NAME login L password P} (and {@code account A}), {@code
 * default login L password P}; {@code macdef NAME} and the lines after it up to an empty line are skipped; a word
 * may be quoted ({@code "a b"}, with {@code \} escaping the next character); {@code #} starts a comment to the
 * end of the line. The first entry of a machine wins, as in curl. Parsing is bounded ({@link #MAX_CHARS}, {@link
 * #MAX_ENTRIES}); errors name the file and the line, never a word of the file.
 */
public final class Netrc {
    /** Largest file parsed (1 MiB). */
    public static final int MAX_CHARS = 1 << 20;
    /** Most entries. */
    public static final int MAX_ENTRIES = 10_000;

    /** One entry; {@code machine} is null for {@code default}. Its {@link #toString()} hides the password. */
    public record Entry(String machine, String login, String password) {
        @Override
        public String toString() {
            return (machine == null ? "default" : "machine " + machine) + " login " + login + " password ***";
        }
    }

    private final List<Entry> entries;

    private Netrc(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** No entries. */
    public static Netrc empty() {
        return new Netrc(List.of());
    }

    public List<Entry> entries() {
        return entries;
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The first entry of {@code host} (exact name, case-insensitive), without falling back to {@code default}. */
    public Optional<Entry> machine(String host) {
        if (host == null) {
            return Optional.empty();
        }
        for (Entry e : entries) {
            if (e.machine() != null && e.machine().equalsIgnoreCase(host)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    /** The {@code default} entry, if any. */
    public Optional<Entry> defaultEntry() {
        return entries.stream().filter(e -> e.machine() == null).findFirst();
    }

    /**
     * Parses the text of a netrc file.
     *
     * @param file the file's name for messages
     * @throws NetrcException naming {@code file} and the line of a syntax error
     */
    public static Netrc parse(String text, String file) throws NetrcException {
        if (text.length() > MAX_CHARS) {
            throw new NetrcException(file, "larger than " + MAX_CHARS + " characters");
        }
        return new Parser(text, file).entries();
    }

    /** A word of the file and the line it starts on. */
    private record Word(String text, int line) {}

    private static final class Parser {
        private final String s;
        private final String file;
        private int pos;
        private int line = 1;

        Parser(String s, String file) {
            this.s = s;
            this.file = file;
        }

        Netrc entries() throws NetrcException {
            List<Entry> out = new ArrayList<>();
            String machine = null;
            boolean inEntry = false;
            boolean isDefault = false;
            String login = null;
            String password = null;
            Word w;
            while ((w = next()) != null) {
                String k = w.text().toLowerCase(Locale.ROOT);
                switch (k) {
                    case "machine":
                    case "default":
                        if (inEntry) {
                            add(out, machine, isDefault, login, password);
                        }
                        inEntry = true;
                        isDefault = k.equals("default");
                        machine = isDefault ? null : value(w, "machine");
                        login = null;
                        password = null;
                        break;
                    case "login":
                        requireEntry(w, inEntry);
                        login = value(w, "login");
                        break;
                    case "password":
                        requireEntry(w, inEntry);
                        password = value(w, "password");
                        break;
                    case "account":
                        requireEntry(w, inEntry);
                        value(w, "account");
                        break;
                    case "macdef":
                        value(w, "macdef");
                        skipMacro();
                        break;
                    default:
                        throw error(
                                w.line(),
                                "unexpected word (expected machine, default, login, password, account or macdef;"
                                        + " a password with spaces must be quoted)");
                }
            }
            if (inEntry) {
                add(out, machine, isDefault, login, password);
            }
            return new Netrc(out);
        }

        private void add(List<Entry> out, String machine, boolean isDefault, String login, String password)
                throws NetrcException {
            if (out.size() >= MAX_ENTRIES) {
                throw error(line, "more than " + MAX_ENTRIES + " entries");
            }
            if (login != null && password != null) {
                out.add(new Entry(isDefault ? null : machine, login, password));
            }
        }

        private void requireEntry(Word w, boolean inEntry) throws NetrcException {
            if (!inEntry) {
                throw error(w.line(), "'" + w.text().toLowerCase(Locale.ROOT) + "' before any machine or default");
            }
        }

        private String value(Word keyword, String name) throws NetrcException {
            Word v = next();
            if (v == null) {
                throw error(keyword.line(), "'" + name + "' without a value at the end of the file");
            }
            return v.text();
        }

        /** Skips a macro body: everything up to an empty line (or the end). */
        private void skipMacro() {
            // the rest of the macdef line
            while (pos < s.length() && s.charAt(pos) != '\n') {
                pos++;
            }
            while (pos < s.length()) {
                pos++; // the '\n'
                line++;
                int start = pos;
                while (pos < s.length() && s.charAt(pos) != '\n') {
                    pos++;
                }
                if (s.substring(start, pos).isBlank()) {
                    return;
                }
            }
        }

        private Word next() throws NetrcException {
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == '\n') {
                    line++;
                    pos++;
                } else if (Character.isWhitespace(c)) {
                    pos++;
                } else if (c == '#') {
                    while (pos < s.length() && s.charAt(pos) != '\n') {
                        pos++;
                    }
                } else {
                    break;
                }
            }
            if (pos >= s.length()) {
                return null;
            }
            int at = line;
            StringBuilder b = new StringBuilder();
            if (s.charAt(pos) == '"') {
                pos++;
                while (true) {
                    if (pos >= s.length()) {
                        throw error(at, "a quoted word is not closed");
                    }
                    char c = s.charAt(pos++);
                    if (c == '"') {
                        break;
                    }
                    if (c == '\\' && pos < s.length()) {
                        c = s.charAt(pos++);
                    }
                    if (c == '\n') {
                        line++;
                    }
                    b.append(c);
                }
            } else {
                while (pos < s.length() && !Character.isWhitespace(s.charAt(pos))) {
                    b.append(s.charAt(pos++));
                }
            }
            return new Word(b.toString(), at);
        }

        private NetrcException error(int at, String why) {
            return new NetrcException(file, "line " + at + ": " + why);
        }
    }
}
