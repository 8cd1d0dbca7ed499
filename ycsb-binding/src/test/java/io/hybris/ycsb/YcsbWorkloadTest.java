/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.ycsb;

import org.apache.htrace.core.HTraceConfiguration;
import org.apache.htrace.core.Tracer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ClientThread;
import site.ycsb.DB;
import site.ycsb.DBFactory;
import site.ycsb.measurements.Measurements;
import site.ycsb.measurements.exporter.TextMeasurementsExporter;
import site.ycsb.workloads.CoreWorkload;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 10-second YCSB run in this JVM, as {@code site.ycsb.Client} does it (YCSB's own CoreWorkload, ClientThread,
 * DBWrapper and Measurements), against the embedded default: load 500 records, then every operation of the core
 * workload (read, update, insert, scan, read-modify-write) from 4 threads with YCSB's data-integrity check on.
 * YCSB's text exporter must report zero failed operations and zero non-OK returns.
 */
class YcsbWorkloadTest {
    private static final Pattern RETURN_LINE = Pattern.compile("^\\[([A-Z-]+)], Return=([A-Z_]+), (\\d+)$",
            Pattern.MULTILINE);
    private static final Pattern OPERATIONS_LINE = Pattern.compile("^\\[([A-Z-]+)], Operations, (\\d+)$",
            Pattern.MULTILINE);
    private static final int THREADS = 4;

    @Test
    void tenSecondWorkloadRunsWithoutErrors(@TempDir Path data) throws Exception {
        Properties p = new Properties();
        p.setProperty("hybris.embedded.dir", data.toString()); // the load phase's data must survive to the run
        p.setProperty("recordcount", "500");
        p.setProperty("operationcount", "0"); // no limit: the run stops after 10 seconds
        p.setProperty("fieldcount", "10");
        p.setProperty("fieldlength", "100");
        p.setProperty("readallfields", "true");
        p.setProperty("writeallfields", "false");
        p.setProperty("dataintegrity", "true");
        p.setProperty("readproportion", "0.4");
        p.setProperty("updateproportion", "0.2");
        p.setProperty("insertproportion", "0.1");
        p.setProperty("scanproportion", "0.1");
        p.setProperty("readmodifywriteproportion", "0.2");
        p.setProperty("maxscanlength", "20");
        p.setProperty("requestdistribution", "zipfian");
        p.setProperty("hybris.scan.page-size", "8");
        Measurements.setProperties(p);

        CoreWorkload workload = new CoreWorkload();
        workload.init(p);
        Tracer tracer = new Tracer.Builder("hybris-ycsb-test").conf(HTraceConfiguration.EMPTY).build();
        try {
            runPhase(p, workload, tracer, false, 500 / THREADS, 0);
            runPhase(p, workload, tracer, true, 0, 10);
        } finally {
            workload.cleanup();
            tracer.close();
        }

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TextMeasurementsExporter exporter = new TextMeasurementsExporter(out);
        Measurements.getMeasurements().exportMeasurements(exporter);
        exporter.close(); // flushes
        String report = out.toString(StandardCharsets.UTF_8);
        Map<String, Long> returns = new TreeMap<>();
        Matcher m = RETURN_LINE.matcher(report);
        while (m.find()) {
            returns.merge(m.group(1) + "=" + m.group(2), Long.parseLong(m.group(3)), Long::sum);
        }
        assertThat(returns.keySet()).as("every operation returned OK; YCSB report:%n%s", report)
                .allMatch(k -> k.endsWith("=OK"));
        assertThat(report).as("no failed operations").doesNotContain("-FAILED]");
        assertThat(returns.get("INSERT=OK")).as("500 loaded plus inserts of the run").isGreaterThan(500L);
        for (String op : List.of("READ", "UPDATE", "SCAN", "VERIFY")) {
            assertThat(returns.get(op + "=OK")).as(op + " count; report:%n%s", report).isPositive();
        }
        // YCSB counts a read-modify-write's returns under READ and UPDATE; it reports only how many ran
        Matcher ops = OPERATIONS_LINE.matcher(report);
        Map<String, Long> operations = new TreeMap<>();
        while (ops.find()) {
            operations.put(ops.group(1), Long.parseLong(ops.group(2)));
        }
        assertThat(operations.get("READ-MODIFY-WRITE")).as("report:%n%s", report).isPositive();
        assertThat(operations.get("READ")).isEqualTo(returns.get("READ=OK"));
    }

    /** One phase on {@value #THREADS} threads: a fixed number of inserts each, or transactions for some seconds. */
    private static void runPhase(Properties p, CoreWorkload workload, Tracer tracer, boolean transactions,
                                 int opsPerThread, int seconds) throws Exception {
        CountDownLatch done = new CountDownLatch(THREADS);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            DB db = DBFactory.newDB(HybrisClient.class.getName(), p, tracer);
            ClientThread client = new ClientThread(db, transactions, workload, p, opsPerThread, 0, done);
            client.setThreadId(i);
            client.setThreadCount(THREADS);
            Thread t = new Thread(client, "ycsb-" + (transactions ? "run-" : "load-") + i);
            threads.add(t);
        }
        threads.forEach(Thread::start);
        ScheduledExecutorService stopper = Executors.newSingleThreadScheduledExecutor();
        try {
            if (seconds > 0) {
                stopper.schedule(workload::requestStop, seconds, TimeUnit.SECONDS);
            }
            assertThat(done.await(seconds + 60, TimeUnit.SECONDS)).as("YCSB threads finished").isTrue();
        } finally {
            stopper.shutdownNow();
        }
        for (Thread t : threads) {
            t.join();
        }
    }
}
