/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every command end to end in a spawned process on the embedded default (in-process ZooKeeper and three
 * directory clouds in a temporary data directory): output, the --json document, exit codes, one-line errors; a
 * standard output that cannot be written, file names near the 255-byte limit, the ls next-page line.
 */
class EmbeddedDefaultCliTest {
    @TempDir
    static Path data;
    @TempDir
    static Path work;
    private static CliProcess cli;

    @BeforeAll
    static void setUp() {
        cli = new CliProcess(Map.of("HYBRIS_DATA_DIR", data.toString()));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static CliProcess.Result ok(CliProcess.Result r) {
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return r;
    }

    private static void failsWithOneLine(CliProcess.Result r, int code, String... parts) {
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(code);
        assertThat(r.errLines()).as(r.toString()).hasSize(1);
        assertThat(r.errLines().get(0)).startsWith("hybris: ").contains(parts).doesNotContain("\tat ");
    }

    @Test
    void putStatCatGetVersionsAndRmRoundTrip() throws IOException {
        CliProcess.Result put = ok(cli.run(utf8("hello, hybris"), "put", "photos", "cat.txt"));
        assertThat(put.stdout()).startsWith("put photos/cat.txt: version 1_").contains("13 bytes on disk");

        Map<String, Object> stat = JsonReader.object(ok(cli.run("--json", "stat", "photos", "cat.txt")).stdout());
        assertThat(stat).containsKeys("container", "key", "version", "sequence", "clientId", "size", "chunks",
                "sha256", "clouds", "metadata");
        assertThat(stat).containsEntry("container", "photos").containsEntry("key", "cat.txt")
                .containsEntry("size", 13L).containsEntry("sequence", 1L).containsEntry("chunks", 0L);
        assertThat((List<?>) stat.get("clouds")).hasSize(2);
        assertThat((String) stat.get("sha256")).hasSize(64);
        String version = (String) stat.get("version");

        assertThat(ok(cli.run("stat", "photos", "cat.txt")).stdout()).contains("photos/cat.txt", version,
                "13 bytes", stat.get("sha256").toString());
        assertThat(ok(cli.run("cat", "photos", "cat.txt")).stdout()).isEqualTo("hello, hybris");
        assertThat(ok(cli.run("cat", "photos", "cat.txt", "--range", "7-")).stdout()).isEqualTo("hybris");
        assertThat(ok(cli.run("cat", "photos", "cat.txt", "-r", "-3")).stdout()).isEqualTo("ris");
        assertThat(ok(cli.run("cat", "photos", "cat.txt", "-r", "0-4")).stdout()).isEqualTo("hello");

        Path file = work.resolve("out.txt");
        Map<String, Object> got = JsonReader.object(ok(cli.run("get", "photos", "cat.txt", file.toString(),
                "--json")).stdout());
        assertThat(got).containsEntry("file", file.toString()).containsEntry("version", version);
        assertThat(Files.readString(file)).isEqualTo("hello, hybris");

        Map<String, Object> versions = JsonReader.object(ok(cli.run("versions", "photos", "cat.txt", "--json"))
                .stdout());
        assertThat(versions).containsEntry("history", false);
        assertThat((List<?>) versions.get("versions")).hasSize(1);
        assertThat(ok(cli.run("versions", "photos", "cat.txt")).stdout()).contains(version, "only the current");

        Path src = work.resolve("meta.txt");
        Files.writeString(src, "second");
        Map<String, Object> put2 = JsonReader.object(ok(cli.run("--json", "put", "photos", "cat.txt",
                src.toString(), "--if-match", version, "-m", "content-type=text/plain")).stdout());
        assertThat(put2).containsEntry("sequence", 2L).containsEntry("metadata", Map.of("content-type",
                "text/plain"));

        Map<String, Object> rm = JsonReader.object(ok(cli.run("rm", "photos", "cat.txt", "--json")).stdout());
        assertThat(rm).containsEntry("deleted", true).containsKey("version");
        Map<String, Object> again = JsonReader.object(ok(cli.run("rm", "photos", "cat.txt", "--json")).stdout());
        assertThat(again).containsEntry("deleted", false).containsEntry("version", null);
    }

    @Test
    void anAbsentKeyIsExitCodeOneWithOneLine() {
        failsWithOneLine(cli.run("cat", "photos", "nothing-here"), ExitCode.NOT_FOUND, "photos/nothing-here",
                "not found");
        failsWithOneLine(cli.run("stat", "photos", "nothing-here"), ExitCode.NOT_FOUND, "not found");
        failsWithOneLine(cli.run("versions", "photos", "nothing-here"), ExitCode.NOT_FOUND, "not found");
        CliProcess.Result get = cli.run("--json", "get", "photos", "nothing-here", work.resolve("x").toString());
        failsWithOneLine(get, ExitCode.NOT_FOUND, "not found");
        Map<String, Object> error = JsonReader.object(get.stdout());
        assertThat(error).containsKey("error");
        assertThat(Files.exists(work.resolve("x"))).isFalse();
    }

    @Test
    void badArgumentsAreExitCodeTwoWithOneLine() {
        failsWithOneLine(cli.run("frobnicate"), ExitCode.USAGE, "frobnicate");
        failsWithOneLine(cli.run(), ExitCode.USAGE, "missing command");
        failsWithOneLine(cli.run("put"), ExitCode.USAGE, "CONTAINER", "put --help");
        failsWithOneLine(cli.run("ls", "photos", "--limit", "many"), ExitCode.USAGE, "many");
        failsWithOneLine(cli.run("ls", "photos", "--limit", "0"), ExitCode.USAGE, "--limit");
        failsWithOneLine(cli.run("cat", "photos", "k", "--range", "5-2"), ExitCode.USAGE, "5-2");
        failsWithOneLine(cli.run("cat", "photos", "k", "--range", "x"), ExitCode.USAGE, "FIRST-LAST");
        failsWithOneLine(cli.run("stat", "Bad_Container", "k"), ExitCode.USAGE, "Bad_Container");
        failsWithOneLine(cli.run("put", "photos", "k", work.resolve("missing").toString()), ExitCode.USAGE,
                "no such file");
        failsWithOneLine(cli.run("put", "photos", "k", "--if-absent", "--if-match", "1_a.b"), ExitCode.USAGE,
                "exclude");
        failsWithOneLine(cli.run("tput", "photos", work.resolve("missing-dir").toString()), ExitCode.USAGE,
                "no such directory");
        failsWithOneLine(cli.run("--json", "cat", "photos", "k"), ExitCode.USAGE, "--json");
        CliProcess.Result debug = cli.run("--debug", "stat", "Bad_Container", "k");
        assertThat(debug.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(debug.stderr()).contains("hybris: ", "InvalidRequestException", "\tat ");
    }

    @Test
    void helpAndVersionSucceed() {
        assertThat(ok(cli.run("--help")).stdout()).contains("Usage: hybris", "Exit codes:", "put", "clouds");
        assertThat(ok(cli.run("ls", "--help")).stdout()).contains("--prefix", "--cursor", "--limit");
        assertThat(ok(cli.run("--version")).stdout()).startsWith("hybris ");
    }

    @Test
    void failedPreconditionsAreExitCodeFive() {
        ok(cli.run(utf8("v1"), "put", "cond", "k"));
        failsWithOneLine(cli.run(utf8("v2"), "put", "cond", "k", "-", "--if-absent"), ExitCode.CONFLICT,
                "cond/k");
        failsWithOneLine(cli.run("rm", "cond", "k", "--if-match", "1_nobody.x"), ExitCode.CONFLICT, "1_nobody.x");
        assertThat(ok(cli.run("cat", "cond", "k")).stdout()).isEqualTo("v1");
    }

    @Test
    void tputStoresADirectoryAndLsPagesThroughIt() throws IOException {
        Path dir = Files.createDirectories(work.resolve("tree"));
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("a.txt"), "A");
        Files.writeString(dir.resolve("b.txt"), "BB");
        Files.writeString(dir.resolve("sub/c.txt"), "CCC");

        Map<String, Object> tput = JsonReader.object(ok(cli.run("--json", "tput", "tree", dir.toString()))
                .stdout());
        assertThat(tput).containsEntry("container", "tree").containsEntry("count", 3L);
        @SuppressWarnings("unchecked")
        Map<String, Object> keys = (Map<String, Object>) tput.get("keys");
        assertThat(keys).containsOnlyKeys("a.txt", "b.txt", "sub/c.txt");
        assertThat(ok(cli.run("cat", "tree", "sub/c.txt")).stdout()).isEqualTo("CCC");

        Map<String, Object> page1 = JsonReader.object(ok(cli.run("ls", "tree", "--limit", "2", "--json"))
                .stdout());
        assertThat(page1.get("keys")).isEqualTo(List.of("a.txt", "b.txt"));
        String cursor = (String) page1.get("nextCursor");
        assertThat(cursor).isNotNull();
        Map<String, Object> page2 = JsonReader.object(ok(cli.run("ls", "tree", "--limit", "2", "--cursor", cursor,
                "--json")).stdout());
        assertThat(page2.get("keys")).isEqualTo(List.of("sub/c.txt"));
        assertThat(page2.get("nextCursor")).isNull();

        CliProcess.Result text = ok(cli.run("ls", "tree", "--limit", "2"));
        assertThat(text.stdout()).isEqualTo("a.txt\nb.txt\n");
        assertThat(text.stderr()).contains("--cursor");
        assertThat(ok(cli.run("ls", "tree", "--prefix", "sub/")).stdout()).isEqualTo("sub/c.txt\n");
        assertThat(ok(cli.run("ls", "tree", "--all", "--limit", "1")).stdout()).isEqualTo("a.txt\nb.txt\nsub/c.txt\n");

        Map<String, Object> stat = JsonReader.object(ok(cli.run("stat", "tree", "b.txt", "--json")).stdout());
        String[] longLines = ok(cli.run("ls", "tree", "--long")).stdout().split("\n");
        assertThat(longLines).hasSize(3);
        assertThat(longLines[1]).matches(" +2  " + stat.get("version") + "  [a-z0-9,-]+  b\\.txt");
        Map<String, Object> described = JsonReader.object(ok(cli.run("ls", "tree", "--long", "--json")).stdout());
        assertThat(described.get("keys")).isEqualTo(List.of("a.txt", "b.txt", "sub/c.txt"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> versions = (List<Map<String, Object>>) described.get("versions");
        assertThat(versions).extracting(v -> v.get("size")).containsExactly(1L, 2L, 3L);
        assertThat(versions.get(1)).containsEntry("key", "b.txt").containsEntry("version", stat.get("version"))
                .containsEntry("clouds", stat.get("clouds"));
    }

    @Test
    void sweepRewrapCloudsAndBenchReport() {
        Map<String, Object> sweep = JsonReader.object(ok(cli.run("sweep", "--json")).stdout());
        assertThat(sweep).containsOnlyKeys("examined", "referenced", "tooYoung", "deleted", "failed");
        assertThat(ok(cli.run("sweep")).stdout()).startsWith("sweep: examined ");

        failsWithOneLine(cli.run("rewrap"), ExitCode.CONFIG, "hybris.crypto.mode");

        Map<String, Object> clouds = JsonReader.object(ok(cli.run("clouds", "--json")).stdout());
        assertThat(clouds).containsEntry("f", 1L).containsEntry("healthy", 3L).containsEntry("probed", true);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> list = (List<Map<String, Object>>) clouds.get("clouds");
        assertThat(list).extracting(m -> m.get("id")).containsExactlyInAnyOrder("disk1", "disk2", "disk3");
        assertThat(list).extracting(m -> m.get("rank")).containsExactly(1L, 2L, 3L);
        assertThat(list).allSatisfy(m -> {
            assertThat(m).containsKeys("readLatencyMs", "writeLatencyMs", "healthy", "errors", "lastError",
                    "lastErrorAt");
            assertThat(m.get("readLatencyMs")).isInstanceOf(Number.class);
            assertThat(m).containsEntry("healthy", true).containsEntry("errors", 0L);
        });
        assertThat(ok(cli.run("clouds")).stdout()).contains("RANK", "CLOUD", "READ", "WRITE", "disk1",
                "3 of 3 clouds answered");

        Map<String, Object> bench = JsonReader.object(ok(cli.run("bench", "-n", "5", "--size", "1KiB", "--json"))
                .stdout());
        assertThat(bench).containsEntry("count", 5L).containsEntry("size", 1024L);
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> through = (Map<String, Map<String, Object>>) bench.get("hybris");
        assertThat(through.get("put")).containsKeys("p50Ms", "p90Ms", "p99Ms", "maxMs", "meanMs");
        assertThat(through.get("get")).containsKeys("p50Ms", "p90Ms", "p99Ms", "maxMs", "meanMs");
        assertThat((List<?>) bench.get("clouds")).hasSize(3);
        assertThat(ok(cli.run("ls", "hybris-bench")).stdout()).as("bench deletes its keys").isEmpty();
        failsWithOneLine(cli.run("bench", "--size", "lots"), ExitCode.USAGE, "--size");
    }

    @Test
    void configurationErrorsAreExitCodeThree() throws IOException {
        failsWithOneLine(cli.run("--config", work.resolve("absent.properties").toString(), "ls", "c"),
                ExitCode.CONFIG, "absent.properties", "does not exist");
        Path bad = work.resolve("bad.properties");
        Files.writeString(bad, "hybris.f=1\nhybris.no-such-key=1\n");
        failsWithOneLine(cli.run("ls", "c", "--config", bad.toString()), ExitCode.CONFIG, "bad.properties",
                "hybris.no-such-key");
        CliProcess envBad = new CliProcess(Map.of("HYBRIS_DATA_DIR", data.toString(), "HYBRIS_DEADLINE", "soon"));
        failsWithOneLine(envBad.run("ls", "c"), ExitCode.CONFIG, "hybris.deadline");
    }

    @Test
    void anUnreachableMetadataStoreIsExitCodeFourWithOneLine() throws IOException {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort(); // closed again: nothing listens there
        }
        String clouds = "hybris.cloud.a.type=directory\nhybris.cloud.a.path=" + work.resolve("ua") + "\n"
                + "hybris.cloud.b.type=directory\nhybris.cloud.b.path=" + work.resolve("ub") + "\n";
        Path zk = work.resolve("zk-closed.properties");
        Files.writeString(zk, "hybris.f=1\nhybris.deadline=3s\nhybris.rmds.type=zookeeper\n"
                + "hybris.rmds.zookeeper.connect=127.0.0.1:" + port + "\n"
                + "hybris.rmds.zookeeper.start-timeout=2s\nhybris.rmds.zookeeper.connect-timeout=1s\n" + clouds);
        failsWithOneLine(cli.run("--config", zk.toString(), "ls", "c"), ExitCode.UNAVAILABLE, "ZooKeeper",
                "127.0.0.1:" + port);
        Path consul = work.resolve("consul-closed.properties");
        Files.writeString(consul, "hybris.f=1\nhybris.deadline=3s\nhybris.rmds.type=consul\n"
                + "hybris.rmds.consul.address=127.0.0.1:" + port + "\n"
                + "hybris.rmds.consul.start-timeout=2s\nhybris.rmds.consul.connect-timeout=1s\n" + clouds);
        CliProcess.Result json = cli.run("--config", consul.toString(), "--json", "put", "c", "k", "-");
        failsWithOneLine(json, ExitCode.UNAVAILABLE, "Consul", "127.0.0.1:" + port);
        @SuppressWarnings("unchecked")
        Map<String, Object> error = (Map<String, Object>) JsonReader.object(json.stdout()).get("error");
        assertThat(error).containsEntry("exitCode", 4L).containsEntry("type", "MetadataUnavailableException");
    }

    @Test
    void largeValuesStreamThroughFilesAndStdout() throws IOException {
        byte[] value = new byte[20 << 20];
        new Random(7).nextBytes(value);
        Path src = work.resolve("large.bin");
        Files.write(src, value);
        CliProcess.Result put = ok(cli.run("put", "large", "v.bin", src.toString()));
        assertThat(put.stderr()).as("no progress when piped").isEmpty();
        Path out = work.resolve("large.out");
        CliProcess.Result get = ok(cli.run("get", "large", "v.bin", out.toString()));
        assertThat(get.stderr()).isEmpty();
        assertThat(Files.readAllBytes(out)).isEqualTo(value);
        CliProcess.Result cat = ok(cli.run("cat", "large", "v.bin"));
        assertThat(cat.stdoutBytes()).isEqualTo(value);
        assertThat(cat.stderr()).isEmpty();
    }

    /** The words a POSIX shell makes of {@code line}. */
    private static List<String> shellWords(String line) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "for w in " + line + "; do printf '%s\\0' \"$w\"; done")
                .redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        p.waitFor();
        List<String> words = new ArrayList<>();
        for (String w : new String(out, StandardCharsets.UTF_8).split("\0")) {
            if (!w.isEmpty()) {
                words.add(w);
            }
        }
        return words;
    }

    /**
     * docs/cli.md: "the next page's cursor, if any, goes to standard error as a ready {@code hybris ls ... --cursor C}
     * line". Run as printed, it must list the next page: one key, as asked with -n 1.
     */
    @Test
    void theReadyLsLineListsTheNextPage() throws Exception {
        for (String key : List.of("a b", "c d", "e f")) {
            ok(cli.run("x".getBytes(), "put", "pages", key));
        }
        CliProcess.Result first = ok(cli.run("ls", "pages", "-n", "1"));
        assertThat(first.stdout()).isEqualTo("a b\n");
        String line = first.errLines().get(0);
        assertThat(line).startsWith("more keys: hybris ls ");
        List<String> words = shellWords(line.substring("more keys: hybris ".length()));

        CliProcess.Result next = cli.run(words.toArray(String[]::new));

        assertThat(next.exitCode()).as(words + "\n" + next).isZero();
        assertThat(next.stdout()).as(words.toString()).isEqualTo("c d\n");
    }

    /** Without any character a shell would split on: the ready line still drops the page size asked for. */
    @Test
    void theReadyLsLineKeepsThePageSize() throws Exception {
        for (String key : List.of("k1", "k2", "k3")) {
            ok(cli.run("x".getBytes(), "put", "plain", key));
        }
        CliProcess.Result first = ok(cli.run("ls", "plain", "-n", "1"));
        List<String> words = shellWords(first.errLines().get(0).substring("more keys: hybris ".length()));

        CliProcess.Result next = ok(cli.run(words.toArray(String[]::new)));

        assertThat(next.stdout()).as(words.toString()).isEqualTo("k2\n");
    }

    /**
     * {@code hybris cat c k > file} on a full disk: the value was not written, so the exit code must not be 0
     * (coreutils cat exits 1 with "write error"). /dev/full fails every write with ENOSPC.
     */
    @Test
    void catToAFullDiskFails() throws Exception {
        ok(cli.run(new byte[200_000], "put", "full", "v"));
        for (List<String> args : List.of(List.of("cat", "full", "v"), List.of("get", "full", "v", "-"))) {
            List<String> cmd = new ArrayList<>(CliProcess.javaCommand());
            cmd.addAll(args);
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(new java.io.File("/dev/full"))
                    .redirectError(ProcessBuilder.Redirect.PIPE);
            pb.environment().keySet().removeIf(k -> k.startsWith("HYBRIS_"));
            pb.environment().put("HYBRIS_DATA_DIR", data.toString());
            Process p = pb.start();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(args + " > /dev/full: " + err).isNotZero();
        }
    }

    /** A key whose last segment is a valid 240-byte file name: get writes it (NAME_MAX is 255). */
    @Test
    void getOfAKeyWithALongFileName() throws IOException {
        String name = "n".repeat(240);
        ok(cli.run("v".getBytes(), "put", "long", "dir/" + name));
        Path target = work.resolve(name);

        CliProcess.Result got = cli.run("get", "long", "dir/" + name, target.toString());

        assertThat(got.exitCode()).as(got.toString()).isZero();
        assertThat(Files.readString(target)).isEqualTo("v");
    }
}
