package io.hikyaku.identity;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The identities in force, swapped as a whole when the config file is reloaded: a request reads
 * one complete set (the old or the new one), never a mix.
 */
public final class CurrentIdentities implements Supplier<Identities> {

    private final AtomicReference<Identities> current;

    public CurrentIdentities(Identities initial) {
        this.current = new AtomicReference<>(Objects.requireNonNull(initial, "identities"));
    }

    @Override
    public Identities get() {
        return current.get();
    }

    /** Puts {@code next} in force for every request that starts from now on. */
    public void replace(Identities next) {
        current.set(Objects.requireNonNull(next, "identities"));
    }
}
