package io.nczarr.store.parquet;

/**
 * The fields of a Parquet {@code PageHeader} (Thrift compact) a reader of data and dictionary pages needs. For
 * a data page v2, {@link #definitionLength()} and {@link #repetitionLength()} are the uncompressed level bytes
 * at the start of the body and {@link #compressed()} says whether the values after them are compressed.
 */
record PageHeader(
        int type,
        int uncompressedSize,
        int compressedSize,
        int numValues,
        int encoding,
        int definitionEncoding,
        int definitionLength,
        int repetitionLength,
        boolean compressed) {

    static PageHeader read(ThriftCompact t) throws ParquetFormatException {
        t.beginStruct();
        int type = -1;
        int usize = -1;
        int csize = -1;
        int[] sub = null;
        for (int ft = t.nextField(); ft != ThriftCompact.STOP; ft = t.nextField()) {
            switch (t.fieldId()) {
                case 1 -> type = t.readI32();
                case 2 -> usize = t.readI32();
                case 3 -> csize = t.readI32();
                case 5, 7, 8 -> {
                    if (ft != ThriftCompact.STRUCT) {
                        throw new ParquetFormatException("page header field " + t.fieldId() + " is not a struct");
                    }
                    sub = readSub(t, t.fieldId());
                }
                default -> t.skip(ft);
            }
        }
        t.endStruct();
        if (type < 0 || usize < 0 || csize < 0) {
            throw new ParquetFormatException("page header without type or sizes");
        }
        if (sub == null) {
            if (type == 0 || type == 2 || type == 3) {
                throw new ParquetFormatException("page header of type " + type + " without its sub-header");
            }
            return new PageHeader(type, usize, csize, 0, 0, 3, 0, 0, true);
        }
        return new PageHeader(type, usize, csize, sub[0], sub[1], sub[2], sub[3], sub[4], sub[5] != 0);
    }

    /**
     * DataPageHeader (5), DictionaryPageHeader (7) or DataPageHeaderV2 (8): {num_values, encoding,
     * definition_level_encoding, definition_levels_byte_length, repetition_levels_byte_length, is_compressed}.
     */
    private static int[] readSub(ThriftCompact t, int which) throws ParquetFormatException {
        int[] v = {-1, -1, 3, 0, 0, 1};
        t.beginStruct();
        for (int ft = t.nextField(); ft != ThriftCompact.STOP; ft = t.nextField()) {
            int id = t.fieldId();
            if (id == 1) {
                v[0] = t.readI32();
            } else if (which == 8) {
                switch (id) {
                    case 4 -> v[1] = t.readI32();
                    case 5 -> v[3] = t.readI32();
                    case 6 -> v[4] = t.readI32();
                    case 7 -> v[5] = ThriftCompact.bool(ft) ? 1 : 0;
                    default -> t.skip(ft);
                }
            } else if (id == 2) {
                v[1] = t.readI32();
            } else if (id == 3 && which == 5) {
                v[2] = t.readI32();
            } else {
                t.skip(ft);
            }
        }
        t.endStruct();
        if (v[0] < 0 || v[1] < 0) {
            throw new ParquetFormatException("page header without num_values or encoding");
        }
        return v;
    }
}
