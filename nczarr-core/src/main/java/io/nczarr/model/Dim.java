package io.nczarr.model;

/** A shared dimension defined in a group. */
public record Dim(String name, long length, boolean unlimited) {}
