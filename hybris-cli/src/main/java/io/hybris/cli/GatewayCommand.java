/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.cli;

import io.hybris.s3.S3Gateway;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code hybris gateway}: serves the client's storage as an S3-compatible endpoint (docs/s3-gateway.md) until
 * stopped. The access key and secret come from options or, better for the secret, the environment
 * ({@code HYBRIS_S3_ACCESS_KEY}, {@code HYBRIS_S3_SECRET_KEY}). Stopped (SIGTERM, Ctrl-C), it refuses new requests
 * with 503, lets those in flight answer for up to {@code --drain} seconds, then closes its client (and the embedded
 * ZooKeeper) before the process exits.
 */
@Command(name = "gateway", mixinStandardHelpOptions = true,
        description = "Serve the storage as an S3-compatible endpoint (path-style, AWS Signature V4) until stopped"
                + " (Ctrl-C or SIGTERM). Buckets are containers. See docs/s3-gateway.md.")
final class GatewayCommand implements Callable<Integer> {
    @ParentCommand
    HybrisCommand root;

    @Option(names = "--port", defaultValue = "9000", paramLabel = "PORT",
            description = "Port to listen on (0: any free port; default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--address", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
            description = "Address to listen on (default ${DEFAULT-VALUE}: this machine only; 0.0.0.0 for all).")
    String address;

    @Option(names = "--drain", defaultValue = "20", paramLabel = "SECONDS",
            description = "Once stopped, how long requests in flight may take to answer before they are cut off"
                    + " (default ${DEFAULT-VALUE}); new requests get 503 meanwhile.")
    int drain;

    @Option(names = "--access-key", paramLabel = "KEY",
            description = "The access key clients sign with (default: $HYBRIS_S3_ACCESS_KEY).")
    String accessKey;

    @Option(names = "--secret-key", paramLabel = "SECRET",
            description = "Its secret key (default: $HYBRIS_S3_SECRET_KEY; prefer the environment, options show in"
                    + " process listings).")
    String secretKey;

    @Option(names = "--tls-key-store", paramLabel = "FILE",
            description = "Serve HTTPS with the key and certificate in this PKCS#12 file (password in"
                    + " $HYBRIS_S3_TLS_PASSWORD).")
    Path keyStore;

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535) {
            throw new CliException(ExitCode.USAGE, "--port " + port + " is not a port: use 0 to 65535");
        }
        if (drain < 0) {
            throw new CliException(ExitCode.USAGE, "--drain " + drain + " is negative: give the seconds requests in"
                    + " flight may take once stopped (0: cut them off)");
        }
        String key = accessKey != null ? accessKey : System.getenv("HYBRIS_S3_ACCESS_KEY");
        String secret = secretKey != null ? secretKey : System.getenv("HYBRIS_S3_SECRET_KEY");
        if (key == null || key.isBlank() || secret == null || secret.isEmpty()) {
            throw new CliException(ExitCode.USAGE, "the gateway needs an access key and a secret key: set"
                    + " HYBRIS_S3_ACCESS_KEY and HYBRIS_S3_SECRET_KEY (or --access-key and --secret-key)");
        }
        Session session = root.session;
        session.longLived();
        S3Gateway.Builder builder = S3Gateway.builder(session.hybris()).host(address).port(port)
                .credentials(key, secret);
        if (keyStore != null) {
            String password = System.getenv("HYBRIS_S3_TLS_PASSWORD");
            builder.tls(keyStore, password == null ? new char[0] : password.toCharArray());
        }
        try (StopSignal stop = StopSignal.install("hybris-gateway-stop", Duration.ofSeconds(drain + 30L));
             S3Gateway gateway = builder.start()) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("endpoint", gateway.endpoint().toString());
            doc.put("access-key", key);
            doc.put("config", session.description());
            session.emit(doc, () -> session.out().println("serving S3 on " + gateway.endpoint() + " (access key "
                    + key + "; " + session.description() + "); stop with Ctrl-C"));
            session.out().flush();
            stop.await();
            session.err().println("hybris: stopping: new requests get 503; those in flight have " + drain
                    + " s to answer");
            session.err().flush();
            if (!gateway.stop(Duration.ofSeconds(drain))) {
                session.err().println("hybris: requests still in flight after " + drain + " s were cut off");
            }
            session.close(); // the client and the embedded ZooKeeper, before the JVM halts
        }
        return ExitCode.OK;
    }
}
