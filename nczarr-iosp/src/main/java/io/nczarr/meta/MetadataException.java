package io.nczarr.meta;

import java.io.IOException;

/** Metadata that cannot be read; the message names the dataset, the key and the field. */
public class MetadataException extends IOException {
    public MetadataException(String dataset, String key, String what) {
        super(dataset + ": " + key + ": " + what);
    }

    public MetadataException(String dataset, String key, String what, Throwable cause) {
        super(dataset + ": " + key + ": " + what, cause);
    }
}
