/**
 * A connection of our own to one Redis node, for bulk writes of a list's sets (redis-bulk.ts; decision 162): commands
 * go out as RESP the caller wrote into buffers, and only simple-string (+…), integer (:…) and error (-…) replies are
 * read. ioredis spends ~15 µs of Node per command, and the restore script spent ~8 µs of Redis per set against ~2 µs
 * for a plain RESTORE. It connects where an ioredis connection is connected now (through Sentinel: the primary; in a
 * cluster: that node), with its TLS options, credentials and database.
 */
import net from "node:net";
import tls from "node:tls";
import type { Redis } from "ioredis";

/** Commands sent and not yet answered, in the order they were sent. */
interface Pending {
  left: number;
  resolve: () => void;
  reject: (e: Error) => void;
}

/** No reply for this long while commands wait: the connection is given up (as ioredis's commandTimeout). */
const REPLY_TIMEOUT_MS = 30_000;

export class RawRedis {
  private readonly pending: Pending[] = [];
  private tail = "";
  private failure: Error | null = null;

  private constructor(private readonly socket: net.Socket) {
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => this.read(chunk));
    socket.on("error", (e) => this.fail(e));
    socket.on("close", () => this.fail(new Error("the connection closed")));
    socket.on("timeout", () => {
      if (this.pending.length) this.fail(new Error(`no reply within ${REPLY_TIMEOUT_MS} ms`));
    });
    socket.setTimeout(REPLY_TIMEOUT_MS);
  }

  /** A connection to where `node` is connected now, authenticated and on its database like it. */
  static async open(node: Redis): Promise<RawRedis> {
    if (node.status !== "ready") await node.ping();
    const s = node.stream as net.Socket | undefined;
    const o = node.options;
    const host = s?.remoteAddress ?? o.host ?? "127.0.0.1";
    const port = s?.remotePort ?? o.port ?? 6379;
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const done = (sock: net.Socket) => {
        sock.off("error", reject);
        resolve(sock);
      };
      if (o.tls) {
        const servername = o.tls.servername ?? (o.host && !net.isIP(o.host) ? o.host : undefined);
        const sock: net.Socket = tls.connect({ ...o.tls, host, port, servername }, () => done(sock));
        sock.once("error", reject);
      } else {
        const sock = net.connect({ host, port }, () => done(sock));
        sock.once("error", reject);
      }
    });
    const raw = new RawRedis(socket);
    const hello: Buffer[] = [];
    if (o.password) hello.push(command(o.username ? ["AUTH", o.username, o.password] : ["AUTH", o.password]));
    if (o.db) hello.push(command(["SELECT", String(o.db)]));
    if (hello.length) await raw.send(hello, hello.length);
    return raw;
  }

  /** Sends `data` (RESP) holding `commands` commands; resolves when each has answered (+… or :…), rejects on an error. */
  send(data: Buffer[], commands: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (commands === 0) return Promise.resolve();
    const done = new Promise<void>((resolve, reject) => this.pending.push({ left: commands, resolve, reject }));
    for (const b of data) this.socket.write(b);
    return done;
  }

  close(): void {
    this.failure ??= new Error("the connection was closed");
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    let text = this.tail + chunk.toString("latin1");
    let at = 0;
    for (;;) {
      const end = text.indexOf("\r\n", at);
      if (end < 0) break;
      const kind = text.charCodeAt(at);
      const line = text.slice(at + 1, end);
      at = end + 2;
      const head = this.pending[0];
      if (!head) return this.fail(new Error(`an unexpected reply: ${line.slice(0, 200)}`));
      if (kind === 45 /* - */) return this.fail(new Error(line.slice(0, 500)));
      if (kind !== 43 /* + */ && kind !== 58 /* : */) return this.fail(new Error(`an unexpected reply: ${String.fromCharCode(kind)}${line.slice(0, 200)}`));
      if (--head.left === 0) {
        this.pending.shift();
        head.resolve();
      }
    }
    text = text.slice(at);
    this.tail = text;
  }

  /** Every waiting send fails with `e` (the first error wins), and the connection is closed. */
  private fail(e: Error): void {
    this.failure ??= e;
    for (const p of this.pending.splice(0)) p.reject(this.failure);
    this.socket.destroy();
  }
}

/** One RESP command of text arguments. */
export function command(args: string[]): Buffer {
  return Buffer.from(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`);
}
