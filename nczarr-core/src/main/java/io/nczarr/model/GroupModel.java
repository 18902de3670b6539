package io.nczarr.model;

import java.util.List;

/**
 * A group.
 *
 * @param name its name ({@code ""} for the root)
 * @param path its full path ({@code "/"}, {@code "/g1"})
 * @param key its store prefix ({@code ""}, {@code "g1"})
 */
public record GroupModel(
        String name,
        String path,
        String key,
        List<Dim> dimensions,
        List<Attr> attributes,
        List<VarModel> variables,
        List<GroupModel> groups) {}
