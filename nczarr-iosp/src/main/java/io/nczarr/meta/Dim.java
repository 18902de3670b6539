package io.nczarr.meta;

/** A shared dimension defined in a group. */
public record Dim(String name, long length, boolean unlimited) {
}
