/**
 * Bulk writes of a list's NPA-NXX sets (a replace's RESTOREs, an add's SADDs, a remove's SREMs) over connections of
 * our own (RawRedis, one per master): each area code's commands go to the master serving its slot, in rounds of
 * ROUND_BYTES with ROUNDS in flight, so the next round is built while Redis runs the last one. Once every command is
 * answered, one write per master goes out on the client's own connection: WAIT (RedisListStore.replicated) covers what
 * that connection wrote, and this write follows every command that master answered, so waiting for it is waiting for
 * them (decision 162).
 */
import type { Redis } from "ioredis";
import { RawRedis } from "./redis-raw";
import { isCluster, keySlot, masters, slotOwner, type RedisClient } from "./redis-client";
import { npa3 } from "./redis-codec";
import { lowerBound } from "../sorted";
import { ListStoreError } from "./store";

/** Bytes of commands per round, rounds in flight. */
const ROUND_BYTES = 8 << 20;
const ROUNDS = 2;
/** How long the marker key lives (it only has to outlive the WAIT that follows). */
const MARK_TTL_MS = 600_000;

const AREA_SLOTS = new Int16Array(1000).fill(-1);
/** The hash slot of an area code's keys (tag {NPA}). */
export function areaSlot(npa: number): number {
  if (AREA_SLOTS[npa] < 0) AREA_SLOTS[npa] = keySlot(`{${npa3(npa)}}`);
  return AREA_SLOTS[npa];
}

type Call = <T>(what: string, fn: () => Promise<T>) => Promise<T>;

export class BulkWriter {
  /** Connections by master ("" outside a cluster), each with an area code that master serves. */
  private readonly raws = new Map<string, { conn: Promise<RawRedis>; npa: number }>();
  private round = new Map<string, { buffers: Buffer[]; commands: number }>();
  private bytes = 0;
  private readonly flight: Promise<unknown>[] = [];

  /** `call` maps a failure to ListStoreError; `prefix`: the store's key prefix (for the marker keys). */
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly what: string,
    private readonly call: Call,
  ) {}

  /** Queues one area code's commands (`commands` of them in `buf`); sends a round once it is full. */
  async add(npa: number, buf: Buffer, commands: number): Promise<void> {
    if (!commands) return;
    const node = await this.connectionFor(npa);
    let part = this.round.get(node);
    if (!part) this.round.set(node, (part = { buffers: [], commands: 0 }));
    part.buffers.push(buf);
    part.commands += commands;
    this.bytes += buf.length;
    if (this.bytes >= ROUND_BYTES) await this.send();
  }

  /** Queues the commands of sorted `numbers`, area code by area code (`commandsOf` writes one area code's). */
  async addAreas(numbers: Float64Array, commandsOf: (from: number, to: number, npa: number) => { buf: Buffer; commands: number }): Promise<void> {
    for (let i = 0; i < numbers.length;) {
      const npa = Math.floor(numbers[i] / 10_000_000);
      const j = lowerBound(numbers, (npa + 1) * 10_000_000, i);
      const { buf, commands } = commandsOf(i, j, npa);
      await this.add(npa, buf, commands);
      i = j;
    }
  }

  /** Sends what is queued, waits for every answer, then writes each master's marker. */
  async done(): Promise<void> {
    await this.send();
    await Promise.all(this.flight);
    await this.call(this.what, () =>
      Promise.all([...this.raws.values()].map((r) => this.redis.set(`${this.prefix}written:{${npa3(r.npa)}}`, "1", "PX", MARK_TTL_MS))),
    );
  }

  /** After a failure: resolves once nothing sent is still unanswered (so nothing lands after a cleanup). */
  settled(): Promise<unknown> {
    return Promise.allSettled(this.flight);
  }

  close(): void {
    for (const r of this.raws.values())
      void r.conn.then(
        (c) => c.close(),
        () => {},
      );
  }

  private async send(): Promise<void> {
    if (!this.round.size) return;
    const round = this.round;
    this.round = new Map();
    this.bytes = 0;
    if (this.flight.length >= ROUNDS) await this.flight.shift();
    const sent = this.call(this.what, () =>
      Promise.all([...round].map(async ([node, part]) => (await this.raws.get(node)!.conn).send(part.buffers, part.commands))),
    );
    sent.catch(() => {}); // awaited through `flight`
    this.flight.push(sent);
  }

  /** The name of the connection to the master serving an area code's slot, opened on first use. */
  private async connectionFor(npa: number): Promise<string> {
    let name = "";
    let node = this.redis as Redis;
    if (isCluster(this.redis)) {
      const cluster = this.redis;
      const owner = () => slotOwner(cluster, areaSlot(npa));
      if (!owner()) await this.call("connect", () => masters(cluster));
      name = owner();
      const found = cluster.nodes("master").find((n) => `${n.options.host}:${n.options.port}` === name);
      if (!found) throw new ListStoreError(`The list store (Redis Cluster) names no master for area code ${npa3(npa)}.`, true);
      node = found;
    }
    if (this.raws.has(name)) return name;
    const conn = this.call(`${this.what} connection`, () => RawRedis.open(node));
    conn.catch(() => {});
    this.raws.set(name, { conn, npa });
    await conn;
    return name;
  }
}
