// Passes a child's output through line by line with a prefix, so our own lines (the `ready`
// line above all) stay easy to tell apart from the child's.
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";

export function pipeLines(source: Readable, target: Writable, prefix: string, rewrite: (line: string) => string = (line) => line): void {
  createInterface({ input: source, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
    target.write(`${prefix}${rewrite(line)}\n`);
  });
}
