package io.nczarr.store;

import io.nczarr.error.StoreException;
import java.nio.file.Path;

/**
 * A cookie file ({@code HTTP.COOKIEJAR}) that cannot be read or written. The message names the file and the
 * option that named it, never a cookie.
 */
public final class CookieFileException extends StoreException {
    private static final long serialVersionUID = 1L;

    public CookieFileException(Path file, String option, String detail) {
        super(file.toString(), null, detail + " (" + option + ")", false, null);
    }
}
