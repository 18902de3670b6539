package io.nczarr.cli;

import io.nczarr.icechunk.IcechunkLog;
import io.nczarr.open.Datasets;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.store.Store;
import io.nczarr.store.StoreResources;
import io.nczarr.store.Stores;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;

/** {@code nczarr log URL}: an Icechunk repository's refs and history; and the snapshot line of {@code ls}. */
final class IcechunkLogCommand {
    private IcechunkLogCommand() {}

    static int run(List<String> args, PrintStream out) throws IOException {
        for (String a : args) {
            if (a.startsWith("-") && a.length() > 1) {
                throw new Main.UsageException("unknown option " + a);
            }
        }
        if (args.size() != 1) {
            throw new Main.UsageException("log needs exactly one URL");
        }
        DatasetUrl url = Datasets.parse(args.get(0));
        if (!url.isIcechunk()) {
            throw new Main.UsageException("log reads Icechunk repositories: give a URL with #mode=zarr,icechunk");
        }
        StoreResources resources = NcZarrOptions.shared().storeResources();
        try (Store base = Stores.open(url, resources)) {
            IcechunkLog.lines(base, url, resources).forEach(out::println);
        }
        return 0;
    }

    /** For an Icechunk URL, the line naming the snapshot it selects; empty for other URLs. */
    static Optional<String> selected(String location) throws IOException {
        DatasetUrl url = Datasets.parse(location);
        if (!url.isIcechunk()) {
            return Optional.empty();
        }
        StoreResources resources = NcZarrOptions.shared().storeResources();
        try (Store base = Stores.open(url, resources)) {
            return Optional.of(IcechunkLog.selected(base, url, resources));
        }
    }
}
