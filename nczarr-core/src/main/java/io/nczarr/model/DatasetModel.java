package io.nczarr.model;

/**
 * A whole dataset as read from its metadata.
 *
 * @param location the dataset location for messages
 * @param conventions which metadata conventions were read ("NCZarr 2.0.0", "NCZarr 1.0.0", "Zarr v2")
 */
public record DatasetModel(String location, String conventions, GroupModel root) {}
