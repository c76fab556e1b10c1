/**
 * Structured logs (decision 140): every line one JSON object with `level`, `time` and `msg`, plus the request
 * id, job id and user id of the work it belongs to (an AsyncLocalStorage context, so code deep in a request or
 * a job logs them without passing them along). Secrets are redacted by key wherever they appear.
 *
 * Under Vitest the lines go through console.* instead of stdout, so the suite's rule holds: a test that logs
 * an error fails unless it asserts it.
 */
import { engineConfig } from "../config";
import { AsyncLocalStorage } from "node:async_hooks";
import { format } from "node:util";
import pino, { type DestinationStream, type Logger } from "pino";

export interface LogContext {
  requestId?: string;
  jobId?: string;
  loadId?: string;
  userId?: string;
}

const context = new AsyncLocalStorage<LogContext>();

/** Runs fn with these ids on every log line it (and everything it awaits) writes. */
export function withLogContext<T>(ids: LogContext, fn: () => T): T {
  return context.run({ ...context.getStore(), ...ids }, fn);
}

/** Runs fn in exactly this context object: ids added later (addLogContext) show on the caller's reference too. */
export function runInLogContext<T>(ctx: LogContext, fn: () => T): T {
  return context.run(ctx, fn);
}

/** Adds an id to the current context (the user, once a request has signed in). */
export function addLogContext(ids: LogContext): void {
  const store = context.getStore();
  if (store) Object.assign(store, ids);
}

export function currentLogContext(): LogContext {
  return { ...context.getStore() };
}

/** Keys whose values never reach a log line, at the top level, one level down, and in request headers. */
const SECRET_KEYS = [
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "apiKey",
  "api_key",
  "key",
  "secret",
  "webhookSecret",
  "webhook_secret",
  "authorization",
  "cookie",
  "sessionSecret",
  "smtpUrl",
];
export const REDACT_PATHS = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((k) => `*.${k}`),
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
];

function consoleDestination(): DestinationStream {
  return {
    write(line: string) {
      const level = /"level":"(\w+)"/.exec(line)?.[1] ?? "info";
      const method = level === "error" || level === "fatal" ? "error" : level === "warn" ? "warn" : "info";
      const msg = /"msg":"((?:[^"\\]|\\.)*)"/.exec(line)?.[1];
      console[method](msg !== undefined ? JSON.parse(`"${msg}"`) : line.trimEnd());
    },
  };
}

export function createLogger(opts: { service: string; level?: string; destination?: DestinationStream }): Logger {
  const destination = opts.destination ?? (engineConfig().VITEST ? consoleDestination() : pino.destination({ dest: 1, sync: true }));
  return pino(
    {
      level: opts.level ?? engineConfig().LOG_LEVEL ?? (engineConfig().VITEST ? "warn" : "info"),
      base: { service: opts.service, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      mixin: () => ({ ...context.getStore() }),
    },
    destination,
  );
}

const g = globalThis as unknown as { __dptLogger?: Logger };

/** The process's logger (its `service` field: `web` for the app, `scrub-service` for a replica, `cli`). */
export function log(): Logger {
  g.__dptLogger ??= createLogger({ service: engineConfig().DPT_SERVICE_NAME ?? "web" });
  return g.__dptLogger;
}

/** Replaces the process's logger (the scrub service's entry names itself; tests capture lines). */
export function setLogger(logger: Logger): void {
  g.__dptLogger = logger;
}

/** An Error as log fields (message and stack, never the whole object with whatever it carries). */
export function errorFields(e: unknown): { err: { message: string; stack?: string } } {
  return { err: e instanceof Error ? { message: e.message, stack: e.stack } : { message: String(e) } };
}

/** Console output of this process (its own lines, Remix's, libraries') as JSON log lines. Never under Vitest. */
export function bridgeConsoleToLog(): void {
  const to =
    (level: "info" | "warn" | "error") =>
    (...args: unknown[]) => {
      const err = args.find((a): a is Error => a instanceof Error);
      const text = format(...args.map((a) => (a instanceof Error ? a.message : a)));
      if (err) log()[level](errorFields(err), text);
      else log()[level](text);
    };
  console.log = to("info");
  console.info = to("info");
  console.warn = to("warn");
  console.error = to("error");
}
