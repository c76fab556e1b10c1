// piscina worker entry: pure CPU tasks (parse, normalize, classify, emit). Built to scrub-service/dist/worker.mjs.
import { workerData } from "node:worker_threads";
import { BloomFilter, type SharedBloom } from "./bloom";
import { lowerThisThreadPriority } from "../ops/thread-priority";
import { adoptEngineConfig } from "../config";
import { emitRows, parseRows, type CallCells, type GoodNotes, type GoodSuffixes, type ParsedRows } from "./csv";

export interface ParseTask {
  op: "parse";
  buf: Uint8Array;
  start: number;
  end: number;
  delim: number;
  phoneCol: number;
  /** Bloom filters of the selected lists, in the order of `maybe` bits (bit i = list i; at most 32: pipeline/list-checks.ts). */
  blooms: (SharedBloom | null)[];
  /** 1000-entry area-code mask of the kept states, or null (no state filter). */
  areaMask: Uint8Array | null;
  /** The batch's reused memory (pipeline/slots.ts); fresh blocks are allocated only when too small. */
  rowsMem?: SharedArrayBuffer;
  flagsMem?: SharedArrayBuffer;
}

export interface ParseResult {
  rows: ParsedRows;
  /** Bit i set: the number may be on list i (Bloom positive). 32 bits: a container, litigation, DNC and the states. */
  maybe: Uint32Array;
  /** 1: the number's area code is outside the chosen states. */
  outOfState: Uint8Array;
}

export interface EmitTask {
  op: "emit";
  buf: Uint8Array;
  rows: ParsedRows;
  classes: Uint8Array;
  reasonIdx: Uint8Array;
  reasons: string[];
  describeInvalid?: boolean;
  delim: number;
  width: number;
  end: number;
  outMem?: SharedArrayBuffer;
  goodSuffixes?: GoodSuffixes;
  goodNotes?: GoodNotes;
  callCells?: CallCells;
}

adoptEngineConfig(workerData); // the parent's EngineConfig (config.ts)
lowerThisThreadPriority(); // scrub threads yield to the threads that answer people (ops/thread-priority.ts)

const blooms = new WeakMap<SharedArrayBuffer, BloomFilter>();

function bloomOf(s: SharedBloom): BloomFilter {
  let b = blooms.get(s.sab);
  if (!b) {
    b = new BloomFilter(s);
    blooms.set(s.sab, b);
  }
  return b;
}

export function parseTask(t: ParseTask): ParseResult {
  const rows = parseRows(t.buf, t.start, t.end, t.delim, t.phoneCol, t.rowsMem);
  const n = rows.count;
  const flags = t.flagsMem && t.flagsMem.byteLength >= n * 5 ? t.flagsMem : new SharedArrayBuffer(n * 5);
  const maybe = new Uint32Array(flags, 0, n);
  const outOfState = new Uint8Array(flags, n * 4, n);
  maybe.fill(0); // reused memory holds an earlier batch's flags
  outOfState.fill(0);
  const codes = rows.codes;
  const areaMask = t.areaMask;
  if (areaMask) {
    for (let r = 0; r < n; r++) {
      const x = codes[r];
      if (x >= 0 && areaMask[Math.floor(x / 10_000_000)] === 0) outOfState[r] = 1;
    }
  }
  t.blooms.forEach((b, l) => {
    if (b) bloomOf(b).hasMany(codes, n, maybe, 1 << l);
  });
  return { rows, maybe, outOfState };
}

export function emitTask(t: EmitTask): [Uint8Array, Uint8Array, Uint8Array] {
  return emitRows(t.buf, t, t.outMem);
}

export default function task(input: ParseTask | EmitTask): ParseResult | [Uint8Array, Uint8Array, Uint8Array] {
  if (input.op === "parse") return parseTask(input);
  return emitTask(input);
}
