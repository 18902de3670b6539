package io.nczarr.aggregation;

import java.util.Arrays;

/**
 * One cell of the fragment grid: its position, and either a file ({@code uri} as written in the
 * aggregation file, {@code identifier} = the variable name in it) or a {@code uniqueValue} that fills
 * the whole fragment without a file.
 */
public record Fragment(int[] position, String uri, String identifier, Object uniqueValue) {

    public Fragment {
        position = position.clone();
    }

    @Override
    public int[] position() {
        return position.clone();
    }

    public boolean hasFile() {
        return uniqueValue == null;
    }

    /** {@code "fragment (1, 0)"}, for messages. */
    public String label() {
        StringBuilder b = new StringBuilder("fragment (");
        for (int i = 0; i < position.length; i++) {
            b.append(i > 0 ? ", " : "").append(position[i]);
        }
        return b.append(')').toString();
    }

    /** The label and the URI, the key of error messages. */
    public String key() {
        return hasFile() ? label() + " " + uri : label() + " (unique value)";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Fragment f
                && Arrays.equals(position, f.position)
                && java.util.Objects.equals(uri, f.uri)
                && java.util.Objects.equals(identifier, f.identifier)
                && java.util.Objects.equals(uniqueValue, f.uniqueValue);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(position) * 31 + java.util.Objects.hash(uri, identifier, uniqueValue);
    }

    @Override
    public String toString() {
        return key();
    }
}
