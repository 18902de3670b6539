package io.nczarr.model;

/** The netCDF-4 atomic types a variable or attribute can have. */
public enum NcType {
    BYTE("byte", 1, false),
    UBYTE("ubyte", 1, true),
    SHORT("short", 2, false),
    USHORT("ushort", 2, true),
    INT("int", 4, false),
    UINT("uint", 4, true),
    INT64("int64", 8, false),
    UINT64("uint64", 8, true),
    FLOAT("float", 4, false),
    DOUBLE("double", 8, false),
    CHAR("char", 1, false),
    STRING("string", 0, false),
    /** A record of named members ({@link ElementType#compound()}): complex numbers, structured dtypes. */
    STRUCTURE("structure", 0, false),
    /** Variable-length bytes ({@code |O} with {@code vlen-bytes}): one {@code byte[]} per element. */
    OPAQUE("opaque", 0, false);

    private final String cdlName;
    private final int size;
    private final boolean unsigned;

    NcType(String cdlName, int size, boolean unsigned) {
        this.cdlName = cdlName;
        this.size = size;
        this.unsigned = unsigned;
    }

    /** The CDL / netCDF type name ({@code "uint64"}). */
    public String cdlName() {
        return cdlName;
    }

    /** Bytes per value in memory (0 for strings). */
    public int size() {
        return size;
    }

    public boolean isUnsigned() {
        return unsigned;
    }

    public boolean isNumeric() {
        return this != CHAR && this != STRING && this != STRUCTURE && this != OPAQUE;
    }

    public boolean isFloatingPoint() {
        return this == FLOAT || this == DOUBLE;
    }

    /** netCDF's nc_type numbers, as NCZarr 1.0 writes attribute types ({@code "4"} = int). */
    public static NcType fromNcTypeNumber(int n) {
        switch (n) {
            case 1:
                return BYTE;
            case 2:
                return CHAR;
            case 3:
                return SHORT;
            case 4:
                return INT;
            case 5:
                return FLOAT;
            case 6:
                return DOUBLE;
            case 7:
                return UBYTE;
            case 8:
                return USHORT;
            case 9:
                return UINT;
            case 10:
                return INT64;
            case 11:
                return UINT64;
            case 12:
                return STRING;
            default:
                return null;
        }
    }
}
