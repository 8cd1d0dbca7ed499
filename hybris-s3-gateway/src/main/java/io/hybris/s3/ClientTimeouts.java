/*
 * Copyright 2026 the Hybris authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.hybris.s3;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Cuts off clients that stall the gateway's threads, which the JDK's HTTP server would wait for forever: a request
 * whose head (or TLS handshake) is not in within {@code head} of its first byte, and a request body or response that
 * makes no progress for {@code idle}. The server reads a request's head, and the handler its body and answer, with
 * blocking calls on the thread running the exchange (or, for a body, the thread Hybris reads it on); an armed timer
 * interrupts that thread when it runs out, which closes the connection (the server's socket channels are
 * interruptible), and the interrupt is cleared again before the thread goes on. A timer is armed only while such a
 * call blocks, never while Hybris works on a request, so a slow cloud is not taken for a slow client. One watchdog
 * thread checks the timers; {@link #close()} stops it. Thread-safe.
 */
final class ClientTimeouts implements AutoCloseable {
    private final long headNanos;
    private final long idleNanos;
    private final Set<Watch> watches = ConcurrentHashMap.newKeySet();
    private final ThreadLocal<Watch> current = new ThreadLocal<>();
    private final AtomicLong cutOff = new AtomicLong();
    private final Thread watchdog;
    private volatile boolean closed;

    ClientTimeouts(Duration head, Duration idle) {
        this.headNanos = head.toNanos();
        this.idleNanos = idle.toNanos();
        long tick = Math.max(TimeUnit.MILLISECONDS.toNanos(10),
                Math.min(TimeUnit.SECONDS.toNanos(1), Math.min(headNanos, idleNanos) / 4));
        this.watchdog = new Thread(() -> watch(tick), "hybris-s3-client-timeouts");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /** {@code pool}, each exchange it runs timed until its request head is read. */
    Executor exchanges(Executor pool) {
        return exchange -> pool.execute(() -> {
            Watch w = new Watch();
            watches.add(w);
            current.set(w);
            w.arm(headNanos);
            try {
                exchange.run();
            } finally {
                w.disarm();
                current.remove();
                watches.remove(w);
            }
        });
    }

    /** The filter that ends the head's timer and times every blocking read of the body and write of the answer. */
    Filter filter() {
        return new Filter() {
            @Override
            public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
                Watch w = current.get();
                if (w != null) {
                    w.disarm(); // the head is in: from here on only blocking reads and writes are timed
                    exchange.setStreams(new TimedInput(exchange.getRequestBody(), w),
                            new TimedOutput(exchange.getResponseBody(), w));
                }
                chain.doFilter(exchange);
            }

            @Override
            public String description() {
                return "client timeouts";
            }
        };
    }

    /** How many timers are armed now: blocking reads or writes of clients, and heads not yet read. */
    int armed() {
        return (int) watches.stream().filter(Watch::isArmed).count();
    }

    /** How many clients were cut off since the start. */
    long cutOff() {
        return cutOff.get();
    }

    @Override
    public void close() {
        closed = true;
        watchdog.interrupt();
    }

    private void watch(long tickNanos) {
        while (!closed) {
            try {
                TimeUnit.NANOSECONDS.sleep(tickNanos); // the watchdog's tick, not a wait for a condition
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Watch w : watches) {
                if (w.expire(now)) {
                    cutOff.incrementAndGet();
                }
            }
        }
    }

    /** The timer of one exchange: at most one blocking call armed at a time. */
    private static final class Watch {
        private Thread thread;
        private long deadline;
        private boolean armed;
        private boolean rang;

        /** Arms the timer for the current thread's next blocking call. */
        synchronized void arm(long nanos) {
            thread = Thread.currentThread();
            deadline = System.nanoTime() + nanos;
            armed = true;
            rang = false;
        }

        /** Disarms; true if the timer ran out, in which case this thread's interrupt is cleared. */
        boolean disarm() {
            boolean ran;
            synchronized (this) {
                armed = false;
                ran = rang;
                rang = false;
            }
            if (ran) {
                Thread.interrupted(); // the timer's interrupt: the thread goes on without it
            }
            return ran;
        }

        synchronized boolean isArmed() {
            return armed;
        }

        synchronized boolean expire(long now) {
            if (!armed || now - deadline < 0) {
                return false;
            }
            armed = false;
            rang = true;
            thread.interrupt();
            return true;
        }
    }

    private IOException stalled(IOException cause, String what) {
        return new IOException("the client " + what + " for "
                + Duration.ofNanos(idleNanos).toSeconds() + " s: connection closed", cause);
    }

    /** A request body whose every read is timed. */
    private final class TimedInput extends FilterInputStream {
        private final Watch watch;

        TimedInput(InputStream in, Watch watch) {
            super(in);
            this.watch = watch;
        }

        @Override
        public int read() throws IOException {
            watch.arm(idleNanos);
            try {
                return in.read();
            } catch (IOException e) {
                throw watch.disarm() ? stalled(e, "sent no data") : e;
            } finally {
                watch.disarm();
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            watch.arm(idleNanos);
            try {
                return in.read(b, off, len);
            } catch (IOException e) {
                throw watch.disarm() ? stalled(e, "sent no data") : e;
            } finally {
                watch.disarm();
            }
        }

        @Override
        public void close() throws IOException {
            watch.arm(idleNanos); // closing an unread body reads it to its end
            try {
                in.close();
            } finally {
                watch.disarm();
            }
        }
    }

    /** A response body whose every write is timed. */
    private final class TimedOutput extends FilterOutputStream {
        private final Watch watch;

        TimedOutput(OutputStream out, Watch watch) {
            super(out);
            this.watch = watch;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            watch.arm(idleNanos);
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw watch.disarm() ? stalled(e, "read nothing") : e;
            } finally {
                watch.disarm();
            }
        }

        @Override
        public void flush() throws IOException {
            watch.arm(idleNanos);
            try {
                out.flush();
            } finally {
                watch.disarm();
            }
        }

        @Override
        public void close() throws IOException {
            watch.arm(idleNanos);
            try {
                out.close();
            } finally {
                watch.disarm();
            }
        }
    }
}
