/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cache;

import io.hybris.CacheSettings;
import io.hybris.Hybris;
import io.hybris.ReadOptions;
import io.hybris.testkit.ServerPorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Several memcached servers (docs/cache.md: "keys are spread by consistent hashing"): one server's outage moves
 * only its own keys. A key on a server that stayed up keeps its entries there, so when the lost server returns
 * the bounded-versions entry of such a key is still the one its writes refreshed meanwhile.
 */
@Timeout(120)
class CacheServerRingTest {
    private static final int KEYS = 24;
    private final List<Process> servers = new ArrayList<>();

    @AfterEach
    void stopServers() throws Exception {
        for (Process p : servers) {
            p.destroy();
            p.waitFor();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The memcached binary the test environment installed (src/test/install-memcached.sh). */
    private static String memcachedBinary() {
        Stream<String> path = Stream.of(System.getenv().getOrDefault("PATH", "").split(":"));
        return Stream.concat(path, Stream.of("/usr/bin", "/usr/sbin", "/usr/local/bin"))
                .map(d -> Path.of(d, "memcached")).filter(Files::isExecutable).findFirst()
                .orElseThrow(() -> new IllegalStateException("memcached is not installed: run"
                        + " src/test/install-memcached.sh")).toString();
    }

    private Process start(int port) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(memcachedBinary(), "-l", "127.0.0.1", "-p",
                Integer.toString(port), "-U", "0", "-m", "16"));
        if ("root".equals(System.getProperty("user.name"))) {
            cmd.addAll(List.of("-u", "root"));
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        servers.add(p);
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return true;
            }
        });
        return p;
    }

    /** The server (index into {@code addresses}) holding {@code key} with {@code marker} in it, or -1. */
    private static int holder(List<String> addresses, String key, String marker) throws IOException {
        for (int i = 0; i < addresses.size(); i++) {
            try (RawMemcached raw = new RawMemcached(addresses.get(i))) {
                Optional<byte[]> v = raw.get(key);
                if (v.isPresent() && CachePoliciesTest.indexOf(v.get(), bytes(marker)) >= 0) {
                    return i;
                }
            } catch (IOException down) {
                // not running
            }
        }
        return -1;
    }

    @Test
    void keysOfServersThatStayedUpDoNotMoveWhenAnotherServerIsLostAndReturns() throws Exception {
        List<Integer> ports = List.of(ServerPorts.next(), ServerPorts.next(), ServerPorts.next());
        List<String> addresses = ports.stream().map(p -> "127.0.0.1:" + p).toList();
        for (int port : ports) {
            start(port);
        }
        try (CacheFixture fx = new CacheFixture(String.join(",", addresses))) {
            Hybris h = fx.open("ring", CacheSettings.builder().type("memcached", Map.of("servers",
                    String.join(",", addresses), "timeout", "500ms")).stalenessVersions(1).build());
            String plain = fx.prefix + "idx/k%d#~versions";
            int[] before = new int[KEYS];
            for (int i = 0; i < KEYS; i++) {
                h.put("idx", "k" + i, bytes("v1-" + i));
                String key = plain.formatted(i);
                String want = "v1-" + i;
                await().atMost(Duration.ofSeconds(10)).until(() -> holder(addresses, key, want) >= 0);
                before[i] = holder(addresses, key, want);
            }
            int lost = 2;
            int probe = -1;
            for (int i = 0; i < KEYS && probe < 0; i++) {
                probe = before[i] == lost ? i : -1;
            }
            assertThat(probe).as("a key on the server to lose").isNotNegative();

            // the third server goes away: once the client noticed, its keys are cached on the other two
            Process third = servers.get(lost);
            third.destroy();
            third.waitFor();
            String probeKey = plain.formatted(probe);
            int p = probe;
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                h.put("idx", "k" + p, bytes("moved-" + p));
                return holder(addresses, probeKey, "moved-" + p) >= 0;
            });
            List<Integer> stayed = new ArrayList<>();
            for (int i = 0; i < KEYS; i++) {
                if (before[i] != lost) {
                    stayed.add(i);
                    h.put("idx", "k" + i, bytes("v2-" + i));
                    String key = plain.formatted(i);
                    String want = "v2-" + i;
                    await().atMost(Duration.ofSeconds(10)).until(() -> holder(addresses, key, want) >= 0);
                }
            }

            // it comes back (empty); once the client uses it again, every key is read from its server again. The
            // client reconnects in the background, waiting longer after each failed try (a clean-clone CI run on a
            // loaded host saw it take almost 30 s after a long outage): up to 90 s
            start(ports.get(lost));
            await().atMost(Duration.ofSeconds(90)).until(() -> {
                for (int i = 0; i < KEYS; i++) { // other keys, some of which the client now caches there
                    h.put("probe", "p" + i, bytes("back-" + i));
                    String key = fx.prefix + "probe/p" + i + "#~versions";
                    String want = "back-" + i;
                    await().atMost(Duration.ofSeconds(10)).until(() -> holder(addresses, key, want) >= 0);
                    if (holder(addresses, key, want) == lost) {
                        return true;
                    }
                }
                return false;
            });
            for (int i : stayed) {
                assertThat(new String(h.get("idx", "k" + i, ReadOptions.boundedStalenessVersions()).orElseThrow(),
                        StandardCharsets.UTF_8)).as("η=1 read of k%d (on server %d before)", i, before[i])
                        .isEqualTo("v2-" + i);
            }
        }
    }
}
