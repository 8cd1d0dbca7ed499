/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * A real Consul agent process for tests, bound to 127.0.0.1 on free ports, with its own temporary directory
 * (configuration, data, log). Framework-neutral: start it in a {@code @BeforeAll} or a try-with-resources block.
 *
 * <pre>{@code
 * try (ConsulTestAgent agent = ConsulTestAgent.dev()) {          // `consul agent -dev`, waits for a leader
 *     store = ConsulMetadataStore.builder().address(agent.address()).build();
 * }
 * try (ConsulTestAgent.Cluster cluster = ConsulTestAgent.cluster(3)) {   // 3 servers, -bootstrap-expect=3
 *     cluster.leader().kill();
 * }
 * }</pre>
 * The binary comes from the system property {@value #BINARY_PROPERTY}, which {@code ./src/test/run-tests.sh} sets
 * (it builds Consul once and caches it); without it every test that needs Consul fails and says so. Starting
 * waits (bounded) until {@code /v1/status/leader} names a leader; polling waits on the process itself, so an agent
 * that exits early is reported at once with its log. {@link #close()} kills the process and its children and
 * deletes the directory. Not thread-safe.
 */
public final class ConsulTestAgent implements AutoCloseable {
    /** The system property naming the Consul binary. */
    public static final String BINARY_PROPERTY = "hybris.test.consul";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** One server's object in a Raft configuration's JSON (flat: no nested objects). */
    private static final Pattern RAFT_SERVER = Pattern.compile("\\{[^{}]*\"Address\"[^{}]*}");
    private static final Pattern RAFT_ADDRESS = Pattern.compile("\"Address\":\"([^\"]+)\"");
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final Path dir;
    private final List<String> command;
    private final int httpPort;
    private final int httpsPort;
    private final int serverPort;
    private final int serfLanPort;
    private String advertisedHost = "127.0.0.1";
    private Process process;

    private ConsulTestAgent(String name, Path dir, List<String> command, int httpPort, int httpsPort,
                            int serverPort, int serfLanPort) {
        this.name = name;
        this.dir = dir;
        this.command = command;
        this.httpPort = httpPort;
        this.httpsPort = httpsPort;
        this.serverPort = serverPort;
        this.serfLanPort = serfLanPort;
    }

    /** The Consul binary, or an error that says how to get one. */
    public static Path binary() {
        String configured = System.getProperty(BINARY_PROPERTY);
        if (configured == null || configured.isBlank()) {
            throw new IllegalStateException("no Consul binary: the system property " + BINARY_PROPERTY + " is not"
                    + " set. Run the tests with ./src/test/run-tests.sh (it builds Consul once, caches it and passes"
                    + " it), or add -D" + BINARY_PROPERTY + "=$(./src/test/install-consul.sh) to the mvn command");
        }
        Path binary = Path.of(configured);
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException(BINARY_PROPERTY + "=" + configured + " is not an executable file;"
                    + " run ./src/test/install-consul.sh and pass the path it prints");
        }
        return binary;
    }

    /** A dev-mode agent ({@code consul agent -dev}: one in-memory server), started and with a leader. */
    public static ConsulTestAgent dev() {
        return dev("");
    }

    /** A dev-mode agent with extra HCL configuration, e.g. an {@code acl { ... }} block. */
    public static ConsulTestAgent dev(String extraHcl) {
        return dev(extraHcl, false);
    }

    /**
     * A dev-mode agent that also serves HTTPS on {@link #httpsPort()} with a certificate for {@code localhost} and
     * {@code 127.0.0.1} from a CA it creates with {@code consul tls}; {@link #caCertificate()} is that CA.
     */
    public static ConsulTestAgent devWithHttps() {
        return dev("", true);
    }

    private static ConsulTestAgent dev(String extraHcl, boolean https) {
        return retryingPortClashes(() -> devOnce(extraHcl, https));
    }

    private static ConsulTestAgent devOnce(String extraHcl, boolean https) {
        String binary = binary().toString(); // first: without it, nothing is created
        Path dir = tempDir("consul-dev-");
        int[] ports = freePorts(6);
        String name = "hybris-dev-" + NAMES.incrementAndGet();
        String tls = "";
        if (https) {
            run(dir, binary, "tls", "ca", "create");
            run(dir, binary, "tls", "cert", "create", "-server", "-dc", "dc1");
            tls = """
                    tls {
                      https {
                        ca_file   = "%s"
                        cert_file = "%s"
                        key_file  = "%s"
                      }
                    }
                    """.formatted(dir.resolve("consul-agent-ca.pem"), dir.resolve("dc1-server-consul-0.pem"),
                    dir.resolve("dc1-server-consul-0-key.pem"));
        }
        String hcl = common(name, dir, ports[0], https ? ports[5] : -1, ports[1], ports[2], ports[3]) + tls + extraHcl;
        ConsulTestAgent agent = new ConsulTestAgent(name, dir, List.of(binary, "agent", "-dev",
                "-config-file=" + write(dir.resolve("agent.hcl"), hcl)), ports[0], https ? ports[5] : -1, ports[2],
                ports[1]);
        agent.startAndAwaitLeader();
        return agent;
    }

    /**
     * A single non-dev server ({@code -bootstrap-expect=1}) that keeps its data on disk, so {@link #restart()}
     * brings back what was written.
     */
    public static ConsulTestAgent persistentServer() {
        return retryingPortClashes(ConsulTestAgent::persistentServerOnce);
    }

    private static ConsulTestAgent persistentServerOnce() {
        String binary = binary().toString();
        Path dir = tempDir("consul-server-");
        int[] ports = freePorts(4);
        String name = "hybris-server-" + NAMES.incrementAndGet();
        String hcl = common(name, dir, ports[0], -1, ports[1], ports[2], ports[3]) + """
                server = true
                bootstrap_expect = 1
                performance { raft_multiplier = 1 }
                """;
        ConsulTestAgent agent = new ConsulTestAgent(name, dir, List.of(binary, "agent",
                "-config-file=" + write(dir.resolve("agent.hcl"), hcl)), ports[0], -1, ports[2], ports[1]);
        agent.startAndAwaitLeader();
        return agent;
    }

    /** {@code n} servers on loopback that bootstrap one cluster ({@code -bootstrap-expect=n}), with a leader. */
    public static Cluster cluster(int n) {
        return cluster(n, (server, serverPort) -> "127.0.0.1");
    }

    /**
     * Where the other servers of a cluster reach a server for Raft and RPC: for server {@code server} (0 to n - 1,
     * in start order) bound to {@code 127.0.0.1:serverPort}, the loopback address it advertises: {@code 127.0.0.1},
     * or another loopback address on which the caller put e.g. a {@link FreezableProxy} listening on the same port in
     * front of the server's, to cut the server off from the leader's log while it keeps answering its HTTP API. The
     * server's gossip then binds and advertises that address too.
     */
    @FunctionalInterface
    public interface ServerRoute {
        String advertisedAddress(int server, int serverPort);
    }

    /**
     * As {@link #cluster(int)}, each server advertising the address {@code route} gives (asked again, with new
     * ports, if the start-up is retried after a port clash).
     */
    public static Cluster cluster(int n, ServerRoute route) {
        return retryingPortClashes(() -> clusterOnce(n, route));
    }

    /**
     * Runs a start-up, again with freshly chosen ports when an agent failed to bind one: a port chosen free can be
     * taken by another process before the agent binds it (at most 3 attempts).
     */
    private static <T> T retryingPortClashes(java.util.function.Supplier<T> start) {
        for (int attempt = 1; ; attempt++) {
            try {
                return start.get();
            } catch (IllegalStateException e) {
                if (attempt == 3 || e.getMessage() == null || !e.getMessage().contains("address already in use")) {
                    throw e;
                }
            }
        }
    }

    private static Cluster clusterOnce(int n, ServerRoute route) {
        String binary = binary().toString();
        List<ConsulTestAgent> servers = new ArrayList<>();
        int[][] ports = new int[n][];
        String[] hosts = new String[n];
        for (int i = 0; i < n; i++) {
            ports[i] = freePorts(4);
            hosts[i] = route.advertisedAddress(i, ports[i][2]);
        }
        String join = IntStream.range(0, n).mapToObj(i -> "\"" + hosts[i] + ":" + ports[i][1] + "\"")
                .collect(Collectors.joining(", "));
        try {
            for (int i = 0; i < n; i++) {
                Path dir = tempDir("consul-cluster-");
                String name = "hybris-cluster-" + NAMES.incrementAndGet() + "-" + i;
                String hcl = common(name, dir, hosts[i], ports[i][0], -1, ports[i][1], ports[i][2], ports[i][3])
                        + (hosts[i].equals("127.0.0.1") ? ""
                                : "serf_lan = \"" + hosts[i] + "\"\nserf_wan = \"" + hosts[i] + "\"\n") + """
                        server = true
                        bootstrap_expect = %d
                        retry_join = [%s]
                        retry_interval = "1s"
                        performance { raft_multiplier = 1 }
                        autopilot { server_stabilization_time = "2s" }
                        """.formatted(n, join);
                ConsulTestAgent agent = new ConsulTestAgent(name, dir, List.of(binary, "agent",
                        "-config-file=" + write(dir.resolve("agent.hcl"), hcl)), ports[i][0], -1, ports[i][2],
                        ports[i][1]);
                agent.advertisedHost = hosts[i];
                servers.add(agent);
                agent.launch();
            }
            Cluster cluster = new Cluster(servers);
            cluster.awaitLeader(START_TIMEOUT);
            return cluster;
        } catch (RuntimeException | Error e) {
            servers.forEach(ConsulTestAgent::close);
            throw e;
        }
    }

    private static String common(String name, Path dir, int http, int https, int serfLan, int server, int serfWan) {
        return common(name, dir, "127.0.0.1", http, https, serfLan, server, serfWan);
    }

    private static String common(String name, Path dir, String advertise, int http, int https, int serfLan,
                                 int server, int serfWan) {
        return """
                node_name = "%s"
                data_dir = "%s"
                bind_addr = "127.0.0.1"
                client_addr = "127.0.0.1"
                advertise_addr = "%s"
                log_level = "warn"
                disable_update_check = true
                ports {
                  http = %d
                  https = %d
                  dns = -1
                  grpc = -1
                  grpc_tls = -1
                  serf_lan = %d
                  serf_wan = %d
                  server = %d
                }
                """.formatted(name, dir.resolve("data"), advertise, http, https, serfLan, serfWan, server);
    }

    /** {@code 127.0.0.1:<http port>}. */
    public String address() {
        return "127.0.0.1:" + httpPort;
    }

    /** The HTTPS port ({@link #devWithHttps()} only). */
    public int httpsPort() {
        return httpsPort;
    }

    /** The CA certificate (PEM) that signed the HTTPS certificate ({@link #devWithHttps()} only). */
    public Path caCertificate() {
        return dir.resolve("consul-agent-ca.pem");
    }

    /** The Raft/RPC address Consul reports as the leader when this server leads. */
    public String serverAddress() {
        return advertisedHost + ":" + serverPort;
    }

    /** This agent's node name. */
    public String name() {
        return name;
    }

    /** Whether the process runs. */
    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** The leader this agent reports ({@code /v1/status/leader}), if it answers with one. */
    public Optional<String> reportedLeader() {
        return httpGet("/v1/status/leader").map(String::trim).filter(body -> body.length() > 2)
                .map(body -> body.substring(1, body.length() - 1));
    }

    /**
     * The server addresses of the Raft voters in the configuration this agent reports
     * ({@code /v1/operator/raft/configuration}, answered by the leader); empty if there is no answer.
     */
    public Set<String> reportedVoters() {
        Set<String> voters = new TreeSet<>();
        httpGet("/v1/operator/raft/configuration").ifPresent(body -> {
            Matcher server = RAFT_SERVER.matcher(body);
            while (server.find()) {
                Matcher address = RAFT_ADDRESS.matcher(server.group());
                if (server.group().contains("\"Voter\":true") && address.find()) {
                    voters.add(address.group(1));
                }
            }
        });
        return voters;
    }

    /** The body of a 200 answer to a GET of {@code path} on this agent's HTTP API; empty for any other outcome. */
    private Optional<String> httpGet(String path) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + address() + path))
                    .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? Optional.of(r.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Kills the process (SIGKILL) and its children, and waits for it to exit. */
    public void kill() {
        if (process == null) {
            return;
        }
        if (process.isAlive()) {
            // only while it lives: a dead agent's pid may already belong to another process, whose children
            // would otherwise be taken for the agent's
            process.descendants().forEach(ProcessHandle::destroyForcibly);
        }
        process.destroyForcibly();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Consul agent " + name + " did not exit after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Kills the agent and starts it again with the same configuration (and data directory), awaiting a leader. */
    public void restart() {
        kill();
        startAndAwaitLeader();
    }

    /** The last lines of the agent's log, for failure messages. */
    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(dir.resolve("agent.log"), StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        kill();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temp directory
        }
    }

    @Override
    public String toString() {
        return "ConsulTestAgent[" + name + " http " + address() + ", server " + serverAddress() + "]";
    }

    private void launch() {
        try {
            process = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("agent.log").toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    private void startAndAwaitLeader() {
        launch();
        try {
            awaitUntil(START_TIMEOUT, () -> reportedLeader().isPresent(), List.of(this), "a leader");
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    /**
     * Polls a condition, waiting on the agents' processes between polls (an agent that exits fails at once).
     */
    private static void awaitUntil(Duration timeout, java.util.function.BooleanSupplier condition,
                                   List<ConsulTestAgent> agents, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            for (ConsulTestAgent a : agents) {
                if (a.process != null && !a.process.isAlive()) {
                    throw new IllegalStateException("Consul agent " + a.name + " exited with code "
                            + a.process.exitValue() + " while waiting for " + what + "; its log:\n" + a.logTail());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no " + what + " within " + timeout.toSeconds() + " s from "
                        + agents + "; log of " + agents.get(0).name + ":\n" + agents.get(0).logTail());
            }
            try {
                // waiting on the process doubles as the poll interval and returns early if it exits
                ConsulTestAgent first = agents.stream().filter(ConsulTestAgent::isAlive).findFirst()
                        .orElse(agents.get(0));
                first.process.waitFor(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
        }
    }

    private static Path tempDir(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path write(Path file, String content) {
        try {
            Files.writeString(file, content, StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void run(Path dir, String... command) {
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("tls.log").toFile())).start();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " failed: "
                        + Files.readString(dir.resolve("tls.log")));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Distinct free loopback ports below the kernel's ephemeral range ({@link ServerPorts}), where no outgoing
     * connection takes one between the choice and the agent's bind.
     */
    private static int[] freePorts(int n) {
        int[] ports = new int[n];
        for (int i = 0; i < n; i++) {
            ports[i] = ServerPorts.next();
        }
        return ports;
    }

    /** Several servers of one cluster; closing kills them all. */
    public static final class Cluster implements AutoCloseable {
        private final List<ConsulTestAgent> servers;

        private Cluster(List<ConsulTestAgent> servers) {
            this.servers = List.copyOf(servers);
        }

        /** The servers, in start order. */
        public List<ConsulTestAgent> servers() {
            return servers;
        }

        /** The current leader, as the live servers report it. */
        public ConsulTestAgent leader() {
            for (ConsulTestAgent s : servers) {
                if (!s.isAlive()) {
                    continue;
                }
                Optional<String> leader = s.reportedLeader();
                if (leader.isPresent()) {
                    for (ConsulTestAgent candidate : servers) {
                        if (candidate.serverAddress().equals(leader.get())) {
                            return candidate;
                        }
                    }
                    throw new IllegalStateException("leader " + leader.get() + " is none of " + servers);
                }
            }
            throw new IllegalStateException("no live server of " + servers + " reports a leader");
        }

        /** Waits until every live server reports the same live leader, and returns it. */
        public ConsulTestAgent awaitLeader(Duration timeout) {
            List<ConsulTestAgent> live = servers.stream().filter(ConsulTestAgent::isAlive).toList();
            awaitUntil(timeout, () -> {
                List<Optional<String>> seen = live.stream().map(ConsulTestAgent::reportedLeader).toList();
                return seen.stream().allMatch(Optional::isPresent) && seen.stream().distinct().count() == 1
                        && live.stream().anyMatch(s -> s.serverAddress().equals(seen.get(0).get()));
            }, live, "a leader agreed by " + live.size() + " servers");
            return leader();
        }

        /**
         * Waits until every server runs and the leader's Raft configuration counts each one as a voter, and
         * returns the leader. A server that was down long enough for autopilot to remove it as dead rejoins as a
         * non-voter and is promoted only after autopilot's stabilization time (2 s in these clusters): until then
         * the quorum counts it out, so killing another server would leave the cluster without a leader.
         */
        public ConsulTestAgent awaitAllVoters(Duration timeout) {
            ConsulTestAgent leader = awaitLeader(timeout);
            Set<String> all = servers.stream().map(ConsulTestAgent::serverAddress).collect(Collectors.toSet());
            awaitUntil(timeout, () -> servers.stream().allMatch(ConsulTestAgent::isAlive)
                    && leader.reportedVoters().equals(all), servers, "all " + servers.size() + " servers voters");
            return leader();
        }

        @Override
        public void close() {
            servers.forEach(ConsulTestAgent::close);
        }
    }
}
