package io.nczarr.codec;

import io.nczarr.error.CodecException;
import io.nczarr.error.UnknownCodecException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Immutable id -> factory map. Each reader builds (or shares) one; nothing global is mutated, so
 * two datasets can use different codec sets. It also keeps the pipelines built from its codecs (a cache: they
 * are immutable), so that opens sharing a registry build each distinct chain once.
 */
public final class CodecRegistry {

    /** Most pipelines kept; the cache starts over past this many. */
    static final int MAX_CACHED_PIPELINES = 256;

    private final Map<String, CodecFactory> factories;
    private final Map<Object, CodecPipeline> pipelines = new ConcurrentHashMap<>();

    private CodecRegistry(Map<String, CodecFactory> factories) {
        this.factories = Collections.unmodifiableMap(new LinkedHashMap<>(factories));
    }

    /** The codecs this project implements, in Java. */
    public static CodecRegistry builtIns() {
        return of(BuiltInCodecs.factories(NativeCodecs.none()));
    }

    /** Built-ins in Java plus every {@link CodecFactory} found by ServiceLoader (a user codec wins on a clash). */
    public static CodecRegistry standard() {
        return standard(NativeCodecs.none());
    }

    /** As {@link #standard()}, with the native decoders of {@code natives} where it has them. */
    public static CodecRegistry standard(NativeCodecs natives) {
        Map<String, CodecFactory> map = new LinkedHashMap<>();
        for (CodecFactory f : BuiltInCodecs.factories(natives)) {
            map.put(f.id(), f);
        }
        for (CodecFactory f : ServiceLoader.load(CodecFactory.class, CodecRegistry.class.getClassLoader())) {
            map.put(f.id(), f);
        }
        return new CodecRegistry(map);
    }

    public static CodecRegistry of(List<CodecFactory> list) {
        Map<String, CodecFactory> map = new LinkedHashMap<>();
        for (CodecFactory f : list) {
            map.put(f.id(), f);
        }
        return new CodecRegistry(map);
    }

    /** A new registry with {@code factory} added (replacing one with the same id). */
    public CodecRegistry with(CodecFactory factory) {
        Map<String, CodecFactory> map = new LinkedHashMap<>(factories);
        map.put(factory.id(), factory);
        return new CodecRegistry(map);
    }

    public Set<String> ids() {
        return factories.keySet();
    }

    public boolean supports(String id) {
        return factories.containsKey(id);
    }

    /** The pipeline kept under {@code key} (what it was built from, by value), or {@code null}. */
    public CodecPipeline cachedPipeline(Object key) {
        return pipelines.get(key);
    }

    /** Keeps a pipeline built from this registry's codecs under {@code key}. */
    public void keepPipeline(Object key, CodecPipeline pipeline) {
        if (pipelines.size() >= MAX_CACHED_PIPELINES) {
            pipelines.clear();
        }
        pipelines.put(key, pipeline);
    }

    /** Creates the codec; an unknown id is a {@link UnknownCodecException} naming it. */
    public Codec create(CodecConfig config) throws CodecException, UnknownCodecException {
        CodecFactory f = factories.get(config.id());
        if (f == null) {
            throw new UnknownCodecException(config.id());
        }
        return f.create(config);
    }
}
