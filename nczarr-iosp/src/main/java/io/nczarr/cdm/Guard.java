package io.nczarr.cdm;

import io.nczarr.error.NcZarrException;
import io.nczarr.url.DatasetUrl;

/**
 * The binding's last line of defence: no RuntimeException (a bug below, or netCDF-Java refusing an
 * object the metadata layer let through) reaches a netCDF-Java caller; it becomes the project's
 * exception naming the dataset, with the original as cause. Root causes belong in the layers below:
 * the fuzz tests count every failure that carries one of these details as an escape.
 */
final class Guard {
    private Guard() {}

    /** Detail prefix of a RuntimeException caught at the binding's entry points. */
    static final String UNEXPECTED = "unexpected failure: ";

    /** Detail prefix of a RuntimeException thrown by netCDF-Java while the CDM objects are built. */
    static final String CDM_REFUSED = "netCDF-Java refuses ";

    /** A RuntimeException at an entry point (open, readData) as the project's exception. */
    static NcZarrException unexpected(String dataset, String variable, RuntimeException e) {
        return new NcZarrException(dataset, null, variable, UNEXPECTED + e, e);
    }

    /** netCDF-Java refused to build {@code object} (e.g. {@code "variable '/g/v'"}). */
    static NcZarrException cdmRefused(String dataset, String key, String object, RuntimeException e) {
        return new NcZarrException(dataset, key, null, CDM_REFUSED + object + ": " + e.getMessage(), e);
    }

    /** A name for a dataset whose store is not open yet: the URL as given, with credentials redacted. */
    static String name(DatasetUrl url) {
        return url.toString(); // redacted (io.nczarr.error.Redaction), as in every other message
    }
}
