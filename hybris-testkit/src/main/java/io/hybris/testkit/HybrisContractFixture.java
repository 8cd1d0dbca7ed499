/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import io.hybris.Hybris;
import io.hybris.HybrisConfig;
import io.hybris.cloud.InMemoryCloudStore;
import io.hybris.spi.CloudStore;
import io.hybris.spi.MetadataStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fixture of {@link HybrisContract}: the metadata store and clouds under test (fresh for each test), the clients
 * a test opens (closed after it), and the helpers the contract's tests share.
 */
public abstract class HybrisContractFixture {
    protected static final String C = "box";
    protected static final Duration AWAIT = Duration.ofSeconds(30);

    protected MetadataStore metadata;
    protected final List<Hybris> clients = new CopyOnWriteArrayList<>();
    /** The test's clouds, undecorated (from {@link #newClouds()}); tests wrap them in fault decorators. */
    protected List<CloudStore> raw;

    /** A metadata store with a fresh, empty namespace for one test. */
    protected abstract MetadataStore newMetadataStore();

    /** Releases a store made by {@link #newMetadataStore()}. */
    protected void closeMetadataStore(MetadataStore store) {
        store.close();
    }

    /**
     * Three clouds with ids {@code c0, c1, c2}, each fresh and empty (or scoped to a fresh, empty namespace), for
     * one test. The default is three {@link InMemoryCloudStore}s; a subclass runs the suite over real clouds.
     */
    protected List<CloudStore> newClouds() {
        return List.of(new InMemoryCloudStore("c0"), new InMemoryCloudStore("c1"), new InMemoryCloudStore("c2"));
    }

    /** Releases the clouds made by {@link #newClouds()}; the default closes them. */
    protected void closeClouds(List<CloudStore> clouds) {
        clouds.forEach(CloudStore::close);
    }

    @BeforeEach
    void setUpStores() {
        metadata = newMetadataStore();
        raw = List.copyOf(newClouds());
        assertThat(raw).as("newClouds()").extracting(CloudStore::id).containsExactly("c0", "c1", "c2");
    }

    @AfterEach
    void tearDownStores() {
        clients.forEach(Hybris::close);
        clients.clear();
        closeMetadataStore(metadata);
        if (raw != null) {
            closeClouds(raw);
        }
    }

    /**
     * Closes the test's clients, metadata store and clouds and starts on new ones: a fresh deployment for the next
     * run of a test that repeats itself (randomized runs, one per seed).
     */
    protected void renewStores() {
        clients.forEach(Hybris::close);
        clients.clear();
        closeMetadataStore(metadata);
        closeClouds(raw);
        metadata = newMetadataStore();
        raw = List.copyOf(newClouds());
    }

    /** The metadata store of the current test. */
    protected MetadataStore metadata() {
        return metadata;
    }

    /** A config builder over the given clouds (wrap {@link #raw} stores in decorators first). */
    protected HybrisConfig.Builder config(List<? extends CloudStore> clouds) {
        HybrisConfig.Builder b = HybrisConfig.builder()
                .f(1)
                .metadataStore(metadata)
                .deadline(Duration.ofSeconds(20))
                .timerMin(Duration.ofMillis(100))
                .timerInitial(Duration.ofMillis(400));
        clouds.forEach(b::cloud);
        return b;
    }

    /**
     * A config builder over {@link #raw} whose clouds' clocks and the client's are {@code clock}: the sweep ages
     * objects on each cloud's own clock, so a test that advances the clock ages them there too
     * ({@link ClockFollowingCloudStore}).
     */
    protected HybrisConfig.Builder configOnClock(MutableClock clock) {
        return config(ClockFollowingCloudStore.all(raw, clock)).clock(clock);
    }

    /** Opens a client that the suite closes after the test. */
    protected Hybris open(HybrisConfig.Builder builder) {
        Hybris h = Hybris.open(builder.build());
        clients.add(h);
        return h;
    }

    protected Hybris openPlain() {
        return open(config(raw));
    }

    protected List<RecordingCloudStore> recording(UnaryOperator<CloudStore> wrapFirstCloud) {
        List<RecordingCloudStore> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            CloudStore s = i == 0 ? wrapFirstCloud.apply(raw.get(i)) : raw.get(i);
            out.add(RecordingCloudStore.of(s));
        }
        return out;
    }

    protected static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    protected static String str(Optional<byte[]> v) {
        return v.map(b -> new String(b, StandardCharsets.UTF_8)).orElse(null);
    }

    protected static byte[] sha(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    protected long objectsOn(CloudStore cloud, String fragment) {
        return cloud.list("").stream().filter(o -> o.key().contains(fragment)).count();
    }
}
