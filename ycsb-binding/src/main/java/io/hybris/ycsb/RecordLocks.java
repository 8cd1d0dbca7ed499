package io.hybris.ycsb;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Striped locks that serialise the writes (insert, read-modify-write update, delete) to one record among the
 * YCSB threads of this JVM, so an update never loses fields written by a concurrent update of the same record
 * here. Writers in other processes are not covered: Hybris is last-writer-wins per key.
 */
final class RecordLocks {
    private final ReentrantLock[] stripes;

    RecordLocks(int stripes) {
        this.stripes = new ReentrantLock[stripes];
        for (int i = 0; i < stripes; i++) {
            this.stripes[i] = new ReentrantLock();
        }
    }

    /** The lock for {@code key}; hold it around the whole write. */
    ReentrantLock of(String key) {
        return stripes[Math.floorMod(key.hashCode() * 0x9E3779B9, stripes.length)];
    }
}
