// The disk's commit flush time, measured the way pg_test_fsync does (the embedded PostgreSQL
// ships without it): rewrite one 8 KiB block and fdatasync it, over and over, on the same file
// system as the cluster's WAL. PostgreSQL's default wal_sync_method on Linux is fdatasync.
import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from "node:fs";
import path from "node:path";

const walBlockBytes = 8 * 1024;

export interface FlushTime {
  flushes: number;
  /** Mean time of one write + fdatasync. */
  flushMs: number;
}

export function measureFlushTime(directory: string, durationMs: number): FlushTime {
  const file = path.join(directory, "bench-fsync-probe");
  const block = Buffer.alloc(walBlockBytes, 0x5a);
  const fd = openSync(file, "w");
  try {
    let flushes = 0;
    const startedAtMs = performance.now();
    while (performance.now() - startedAtMs < durationMs) {
      writeSync(fd, block, 0, block.length, 0);
      fdatasyncSync(fd);
      flushes++;
    }
    return { flushes, flushMs: (performance.now() - startedAtMs) / flushes };
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
}
