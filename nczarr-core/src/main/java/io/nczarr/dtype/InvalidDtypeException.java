package io.nczarr.dtype;

/**
 * A dtype string that is not a NumPy type string this project understands. Checked, so each
 * caller decides what a bad dtype means for it (a metadata error, a codec error, "unknown type").
 */
public final class InvalidDtypeException extends Exception {
    private static final long serialVersionUID = 1L;

    public InvalidDtypeException(String message) {
        super(message);
    }
}
