/**
 * Half of a large list file's parse on a thread of its own (worker/dedupe-thread.ts, its parse-field message): while
 * this thread parses one batch, the side thread parses others (numbersOfFile keeps up to two in flight), so a
 * 20M-number load's parsing and normalizing is shared by two cores that otherwise wait for it (decision 162). Once
 * the numbers are all read, the same thread buckets half of them by area code and sorts area codes it claims
 * (count-areas, scatter-areas, sort-areas).
 */
import { withEngineConfig } from "../config";
import fs from "node:fs";
import { Worker } from "node:worker_threads";
import { defaultDedupeThreadPath } from "../dist-paths";
import type { ParsedField, ParseFieldMessage } from "../worker/parse-messages";
import type { AreaBuckets, AreaHelper, AreasAnswer, AreasMessage } from "../worker/sort-distinct";

export class SideParser implements AreaHelper {
  private next = 0;
  private waiting = new Map<number, { resolve: (p: ParsedField) => void; reject: (e: Error) => void }>();
  /** count-areas, scatter-areas and sort-areas messages not answered yet. */
  private areaWaiting = new Map<number, { resolve: (ok: boolean) => void; reject: (e: Error) => void }>();
  private failure: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on("message", (p: ParsedField | AreasAnswer) => {
      if ("areasDone" in p) {
        this.areaWaiting.get(p.areasDone)?.resolve(p.ok);
        this.areaWaiting.delete(p.areasDone);
        return;
      }
      const w = this.waiting.get(p.parsed);
      this.waiting.delete(p.parsed);
      w?.resolve(p);
    });
    const fail = (e: Error) => {
      this.failure = e;
      for (const w of [...this.waiting.values(), ...this.areaWaiting.values()]) w.reject(e);
      this.waiting.clear();
      this.areaWaiting.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`The list file's parse thread ended (exit ${code}).`)));
  }

  /** A side parser, or null when the built thread file is missing (the caller parses every batch itself). */
  static start(): SideParser | null {
    const file = defaultDedupeThreadPath();
    return fs.existsSync(file) ? new SideParser(new Worker(file, { workerData: withEngineConfig({}) })) : null;
  }

  /**
   * The codes of field `col` of rows buf[start, end) (the buffer shared, never refilled: see BatchReader.release);
   * `mem`: memory for the results (parseCodes's `mem`), when the caller has it.
   */
  parse(buf: Uint8Array, start: number, end: number, delim: number, col: number, mem?: SharedArrayBuffer): Promise<ParsedField> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const m: ParseFieldMessage = { op: "parse-field", id, buf, start, end, delim, col, mem };
      this.worker.postMessage(m);
    });
  }

  /**
   * Sorts area codes claimed from `buckets` (see sortClaimedAreas) of `numbers` (shared memory), after the work posted
   * before; settles once this thread claims no more.
   */
  async sortAreas(buckets: AreaBuckets, numbers: Float64Array): Promise<void> {
    await this.areas({ op: "sort-areas", id: 0, buckets, numbers });
  }

  /** bucketByAreaWith's count of a[from, to) (countAreas). */
  countAreas(numbers: Float64Array, from: number, to: number, counts: Uint32Array): Promise<boolean> {
    return this.areas({ op: "count-areas", id: 0, numbers, from, to, counts });
  }

  /** bucketByAreaWith's placing of a[from, to) (scatterAreas). */
  async scatterAreas(numbers: Float64Array, from: number, to: number, at: Uint32Array, rests: Uint32Array): Promise<void> {
    await this.areas({ op: "scatter-areas", id: 0, numbers, from, to, at, rests });
  }

  private areas(m: AreasMessage): Promise<boolean> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.areaWaiting.set(id, { resolve, reject });
      this.worker.postMessage({ ...m, id });
    });
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners("exit");
    await this.worker.terminate();
    const closed = new Error("The list file's parse thread was closed.");
    for (const w of [...this.waiting.values(), ...this.areaWaiting.values()]) w.reject(closed);
    this.waiting.clear();
    this.areaWaiting.clear();
  }
}
