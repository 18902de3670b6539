package io.nczarr.store.parquet;

/**
 * What is wrong with a Parquet file, found while decoding it. Internal to this package: {@link ReferenceRecords}
 * turns it into a {@link io.nczarr.error.StoreException} naming the dataset and the file.
 */
final class ParquetFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    ParquetFormatException(String message) {
        super(message);
    }

    ParquetFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
