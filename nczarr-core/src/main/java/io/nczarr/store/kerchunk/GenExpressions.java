package io.nczarr.store.kerchunk;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code {{...}}} of kerchunk {@code gen} entries (jinja2 in Python): a name (a dimension's value or a
 * template) or integer arithmetic on names and numbers with {@code + - * / // % ( )} ({@code /} and {@code
 * //} both floor-divide, as the offsets and lengths need whole numbers). Anything else (filters, calls,
 * strings) is refused: a reference must not be guessed. Overflow is refused too.
 */
final class GenExpressions {
    private static final Pattern EXPR = Pattern.compile("\\{\\{(.*?)\\}\\}", Pattern.DOTALL);
    private static final int MAX_LENGTH = 200;

    private GenExpressions() {}

    static String render(String text, Map<String, Object> vars, Map<String, String> templates, String where)
            throws ReferenceFiles.Malformed {
        if (!text.contains("{{")) {
            return text;
        }
        Matcher m = EXPR.matcher(text);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String expr = m.group(1).trim();
            String value;
            if (vars.containsKey(expr)) {
                value = String.valueOf(vars.get(expr));
            } else if (templates.containsKey(expr)) {
                value = templates.get(expr);
            } else {
                value = Long.toString(new Parser(expr, vars, where).evaluate());
            }
            m.appendReplacement(b, Matcher.quoteReplacement(value));
        }
        m.appendTail(b);
        return b.toString();
    }

    /** Recursive descent: sum := product (('+'|'-') product)*; product := unary (('*'|'/'|'//'|'%') unary)*. */
    private static final class Parser {
        private final String s;
        private final Map<String, Object> vars;
        private final String where;
        private int pos;

        Parser(String s, Map<String, Object> vars, String where) throws ReferenceFiles.Malformed {
            if (s.length() > MAX_LENGTH) {
                throw new ReferenceFiles.Malformed(where + ": expression too long");
            }
            this.s = s;
            this.vars = vars;
            this.where = where;
        }

        long evaluate() throws ReferenceFiles.Malformed {
            long v = sum();
            skip();
            if (pos != s.length()) {
                throw error();
            }
            return v;
        }

        private ReferenceFiles.Malformed error() {
            return new ReferenceFiles.Malformed(where + ": unsupported expression '{{" + s + "}}' (names and integer"
                    + " arithmetic + - * / // % only)");
        }

        private void skip() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        private long sum() throws ReferenceFiles.Malformed {
            long v = product();
            while (true) {
                skip();
                if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
                    char op = s.charAt(pos++);
                    long r = product();
                    v = exact(v, r, op);
                } else {
                    return v;
                }
            }
        }

        private long product() throws ReferenceFiles.Malformed {
            long v = unary();
            while (true) {
                skip();
                if (pos < s.length() && (s.charAt(pos) == '*' || s.charAt(pos) == '/' || s.charAt(pos) == '%')) {
                    char op = s.charAt(pos++);
                    if (op == '/' && pos < s.length() && s.charAt(pos) == '/') {
                        pos++;
                    }
                    long r = unary();
                    if ((op == '/' || op == '%') && r == 0) {
                        throw new ReferenceFiles.Malformed(where + ": division by zero in '{{" + s + "}}'");
                    }
                    v = exact(v, r, op);
                } else {
                    return v;
                }
            }
        }

        private long unary() throws ReferenceFiles.Malformed {
            skip();
            if (pos < s.length() && s.charAt(pos) == '-') {
                pos++;
                return exact(0, unary(), '-');
            }
            if (pos < s.length() && s.charAt(pos) == '+') {
                pos++;
                return unary();
            }
            return atom();
        }

        private long atom() throws ReferenceFiles.Malformed {
            skip();
            if (pos >= s.length()) {
                throw error();
            }
            char c = s.charAt(pos);
            if (c == '(') {
                pos++;
                long v = sum();
                skip();
                if (pos >= s.length() || s.charAt(pos) != ')') {
                    throw error();
                }
                pos++;
                return v;
            }
            int start = pos;
            if (Character.isDigit(c)) {
                while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                    pos++;
                }
                try {
                    return Long.parseLong(s.substring(start, pos));
                } catch (NumberFormatException e) {
                    throw new ReferenceFiles.Malformed(where + ": number too large in '{{" + s + "}}'");
                }
            }
            if (Character.isLetter(c) || c == '_') {
                while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) {
                    pos++;
                }
                Object v = vars.get(s.substring(start, pos));
                if (v instanceof Long l) {
                    return l;
                }
                throw new ReferenceFiles.Malformed(
                        where + ": '" + s.substring(start, pos) + "' is not a numeric dimension in '{{" + s + "}}'");
            }
            throw error();
        }

        private long exact(long a, long b, char op) throws ReferenceFiles.Malformed {
            try {
                return switch (op) {
                    case '+' -> Math.addExact(a, b);
                    case '-' -> Math.subtractExact(a, b);
                    case '*' -> Math.multiplyExact(a, b);
                    case '/' -> Math.floorDiv(a, b);
                    default -> Math.floorMod(a, b);
                };
            } catch (ArithmeticException e) {
                throw new ReferenceFiles.Malformed(where + ": overflow in '{{" + s + "}}'");
            }
        }
    }
}
