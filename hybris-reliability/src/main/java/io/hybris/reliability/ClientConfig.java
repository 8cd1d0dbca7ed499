package io.hybris.reliability;

import io.hybris.HybrisConfig;
import io.hybris.crypto.MetadataKeyProvider;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;

import java.time.Duration;
import java.util.List;

/**
 * How every in-process campaign client is configured: f = 1 over the three (decorated) clouds, a 10 s deadline,
 * and encryption when the campaign asks for it.
 *
 * @param clouds  the clouds, shared by every client (they stay open when a client closes)
 * @param encrypt whether values are encrypted (a fresh data key per version, kept in metadata)
 */
record ClientConfig(List<? extends CloudStore> clouds, boolean encrypt) {
    /** Every call's deadline. */
    static final Duration DEADLINE = Duration.ofSeconds(10);

    /** A builder for a client over {@code store} whose garbage collector waits {@code gcGrace} before sweeping. */
    HybrisConfig.Builder builder(MetadataStore store, Duration gcGrace) {
        HybrisConfig.Builder b = HybrisConfig.builder().f(1).metadataStore(store).deadline(DEADLINE)
                .timerMin(Duration.ofMillis(150)).timerInitial(Duration.ofSeconds(1)).gcGrace(gcGrace);
        clouds.forEach(b::cloud);
        if (encrypt) {
            b.encryption(new MetadataKeyProvider());
        }
        return b;
    }
}
