package io.nczarr.meta;

import io.nczarr.store.StoreKeys;

/**
 * Which names a group, variable or dimension may have: netCDF's rules (netcdf-c's NC_check_name: no
 * {@code /}, no control characters, no leading or trailing blank). netCDF-Java would otherwise drop
 * the control characters and trim, so two names the metadata keeps apart could become one. Names of
 * objects in the store (NCZarr's dimensions included) must also be usable as one store key segment.
 */
final class Names {
    private Names() {}

    /** What is wrong with the name of a group or variable (a store key segment too), or {@code null}. */
    static String objectProblem(String name) {
        String p = problem(name);
        if (p == null && !StoreKeys.isSafe(name)) {
            return "not usable as a store key";
        }
        return p;
    }

    /** What is wrong with {@code name} as a netCDF name, or {@code null} when it is a legal one. */
    static String problem(String name) {
        if (name.isEmpty()) {
            return "empty";
        }
        if (name.indexOf('/') >= 0) {
            return "contains '/'";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                return "contains the control character U+" + String.format("%04X", (int) c);
            }
        }
        if (Character.isWhitespace(name.charAt(0)) || Character.isWhitespace(name.charAt(name.length() - 1))) {
            return "starts or ends with a blank";
        }
        return null;
    }
}
