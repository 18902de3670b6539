package io.nczarr.http.auth;

import io.nczarr.error.NcZarrException;

/**
 * A {@code .netrc} file that cannot be read or parsed. The message names the file and the line, never a word of
 * the file (a misplaced word may be a password).
 */
public final class NetrcException extends NcZarrException {
    private static final long serialVersionUID = 1L;

    public NetrcException(String file, String detail) {
        super(file, null, null, detail, null);
    }
}
