/**
 * EngineConfig: every environment variable the engine reads, parsed and checked once at each entry (the scrub
 * service's service-main.ts, the CLI's cli.ts, the web server's app/utils/env.server.ts) and passed down
 * (issue #45, docs/decisions/188-one-engine-config.md). Below the entries no module reads `process.env`: the
 * eslint rule in eslint.config.mjs refuses it.
 *
 * The entry installs its config for the process with `useEngineConfig`; the thread entries (worker, dedupe,
 * workbook and exemption threads) receive it in their workerData (`withEngineConfig`) and install it there.
 * A process that no entry configured (a test or a benchmark importing engine modules directly) gets the
 * config of its environment on first use, parsed here, the one place below the entries that reads it.
 *
 * Each variable has a one-line description: README.md's configuration table is checked against them
 * (tests/lint/readme-configuration.test.ts). A description starting with "(internal)" marks a variable set by
 * the project's own processes, not by an operator; the README need not list it.
 */
import { z } from "zod";

/** Unset or empty: the default. Otherwise a whole number in [min, max], or a message naming the variable. */
function int<D extends number | undefined>(o: { min: number; max?: number; default: D }, description: string) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): number | D => {
      if (raw === undefined || raw.trim() === "") return o.default;
      const n = Number(raw);
      if (Number.isInteger(n) && n >= o.min && (o.max === undefined || n <= o.max)) return n;
      const message =
        o.max !== undefined
          ? `must be a whole number from ${o.min} to ${o.max}, not "${raw}"`
          : o.min === 1
            ? `must be a positive whole number (got "${raw}").`
            : `must be a whole number of at least ${o.min} (got "${raw}").`;
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    })
    .describe(description);
}

/** Unset or empty: the default. Otherwise a finite number above (or, with `orEqual`, at least) `above`. */
function num(o: { above: number; orEqual?: boolean; default: number }, description: string) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): number => {
      if (raw === undefined || raw.trim() === "") return o.default;
      const n = Number(raw);
      if (Number.isFinite(n) && (o.orEqual ? n >= o.above : n > o.above)) return n;
      ctx.addIssue({ code: "custom", message: `must be a number ${o.orEqual ? "of at least" : "above"} ${o.above} (got "${raw}").` });
      return z.NEVER;
    })
    .describe(description);
}

function text(description: string) {
  return z.string().optional().describe(description);
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

export const engineConfigSchema = z.object({
  // where the data is
  DATABASE_URL: text("PostgreSQL connection string (unset: PGlite under DATA_DIR)"),
  DATA_DIR: z.string().default("./data").describe("PGlite database, uploads, result files and the list cache"),
  REDIS_URL: text("Redis holding the list sets (unset: the embedded index)"),
  REDIS_CLUSTER_NODES: text("host:port,… of a Redis Cluster holding the list sets (wins over REDIS_URL)"),
  REDIS_SENTINELS: text("host:port,… of the Sentinels watching a Redis primary/replica pair"),
  REDIS_SENTINEL_NAME: text("the Sentinels' primary name"),
  REDIS_SENTINEL_PASSWORD: text("password of the Sentinels"),
  SCRUB_REDIS_PREFIX: text("prefix of the engine's Redis keys (tests: one per run)"),
  // the standalone service and its clients
  SCRUB_SERVICE_URL: text("URL of a separate scrub service (the CLI and the app talk to it instead of running scrubs)"),
  SCRUB_SERVICE_TOKEN: text("shared secret between the app, the CLI and the scrub service (at least 16 characters)"),
  SCRUB_SERVICE_PORT: int({ min: 1, max: 65535, default: 3100 }, "the standalone scrub service's HTTP port"),
  SHUTDOWN_GRACE_MS: int({ min: 1, default: undefined }, "after SIGTERM, how long /readyz answers 503 before the process stops taking connections"),
  SCRUB_LEASE_MS: int({ min: 1, default: undefined }, "lease of a running job or list load; a dead replica's work is retried after it (default 30 s)"),
  SCRUB_THREADS: int({ min: 1, default: undefined }, "worker threads of a scrub (default: the cores, at most 4)"),
  SCRUB_BATCH_BYTES: int({ min: 1, default: undefined }, "bytes per scrub batch (default 4 MiB)"),
  SCRUB_MAX_CONCURRENT_JOBS: int({ min: 1, default: 1 }, "scrubs and list loads run at once per process"),
  SCRUB_WORKER_NICE: int({ min: 0, max: 19, default: 10 }, "nice value of the scrub threads (0 leaves their priority as it is)"),
  // what the readers accept (docs/decisions/150-hostile-input-bounds.md)
  SCRUB_MAX_COLUMNS: int({ min: 1, default: 1000 }, "most columns a file may have"),
  SCRUB_MAX_RECORD_BYTES: int({ min: 1, default: 1024 * 1024 }, "longest record (row) accepted, in bytes"),
  SCRUB_MAX_SHARED_STRINGS: int({ min: 1, default: 8 * 1024 * 1024 }, "shared strings a workbook may hold"),
  SCRUB_MAX_SHARED_STRING_BYTES: int({ min: 1, default: 128 * 1024 * 1024 }, "UTF-8 bytes of a workbook's shared strings together"),
  SCRUB_MAX_WORKBOOK_DECODES: int({ min: 1, default: 1 }, "workbooks decoded at once per process"),
  SCRUB_WORKBOOK_HEAP_MB: int({ min: 1, default: 768 }, "heap of a workbook's decode thread (MB)"),
  SCRUB_MAX_UNPACKED_BYTES: int({ min: 1, default: 8 * 1024 ** 3 }, "largest total a compressed upload may unpack to, in bytes"),
  SCRUB_MAX_UNPACK_RATIO: num({ above: 1, default: 200 }, "largest expansion of a compressed upload"),
  SCRUB_MAX_EXEMPTION_READS: int({ min: 1, default: 1 }, "exemption files read at once per process"),
  SCRUB_DEDUPE_THREAD_MIN_BYTES: int({ min: 0, default: 1 << 20 }, "inputs from this size on check duplicates on a thread of their own"),
  // the thread entries (scrub-service/dist, built by scrub-service/scripts/build-worker.mjs)
  SCRUB_WORKER_PATH: text("the scrub worker bundle (default scrub-service/dist/worker.mjs under the working directory)"),
  SCRUB_DEDUPE_THREAD_PATH: text("the duplicate-check thread bundle (default scrub-service/dist/dedupe-thread.mjs)"),
  SCRUB_WORKBOOK_THREAD_PATH: text("the workbook-decode thread bundle (default scrub-service/dist/workbook-thread.mjs)"),
  SCRUB_EXEMPTION_THREAD_PATH: text("the exemption-file thread bundle (default scrub-service/dist/exemption-thread.mjs)"),
  // live lookups, operations, certificates
  LOOKUP_STORE_TIMEOUT_MS: num({ above: 0, default: 500 }, "how long a live lookup waits for the database and the list store (ms)"),
  READINESS_CACHE_MS: num({ above: 0, orEqual: true, default: 1000 }, "how long one readiness answer serves every /readyz request (ms)"),
  METRICS_TOKEN: text("lets non-loopback clients read /metrics with a bearer token"),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: (i) => `must be one of ${LOG_LEVELS.join(", ")} (got "${String(i.input)}").` })
    .optional()
    .describe("level of the JSON log lines written to stdout (default info)"),
  LOG_PRETTY: text("1 leaves console output as plain text (development)"),
  CERT_SIGNING_KEY: text("PKCS#8 PEM of the certificate signing key (unset: keys kept in the database)"),
  CERTIFICATE_KEYS_URL: text("where `npm run verify` fetches the published certificate keys (default APP_URL's)"),
  APP_URL: text("public base URL of the app (the CLI's default for the certificate keys)"),
  DPT_SERVICE_NAME: text("(internal) the `service` field of the log lines: web, scrub-service or cli"),
  VITEST: text("(internal) set by the test runner: log lines go through the console at warn level"),
});

export type EngineConfig = z.output<typeof engineConfigSchema>;

/** The variables' names and one-line descriptions (the README's configuration table is checked against them). */
export function engineConfigVariables(): { name: string; description: string }[] {
  return Object.entries(engineConfigSchema.shape).map(([name, s]) => ({ name, description: s.description ?? "" }));
}

/**
 * Parses the engine's variables out of an environment (other variables are ignored). An invalid value throws one
 * line per variable, each naming it ("SCRUB_WORKER_NICE must be a whole number from 0 to 19, not \"x\"").
 */
export function parseEngineConfig(source: Record<string, string | undefined>): EngineConfig {
  const picked = Object.fromEntries(Object.keys(engineConfigSchema.shape).map((k) => [k, source[k] === "" ? undefined : source[k]]));
  const result = engineConfigSchema.safeParse(picked);
  if (!result.success) throw new Error(result.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("\n"));
  return result.data;
}

let installed: EngineConfig | null = null;

/** Installs the entry's config for this process (or thread); returns it. Tests pass an object (`engineConfigOf`). */
export function useEngineConfig(config: EngineConfig): EngineConfig {
  installed = config;
  return config;
}

/** The process's config: the one its entry installed, else (tests, benchmarks) its environment's, parsed once. */
export function engineConfig(): EngineConfig {
  // eslint-disable-next-line no-restricted-properties -- the engine's parser: the fallback of a process no entry configured
  installed ??= parseEngineConfig(process.env);
  return installed;
}

/** A config from the defaults and the given values (tests: "SCRUB_MAX_COLUMNS" → "5"). */
export function engineConfigOf(values: Record<string, string | undefined> = {}): EngineConfig {
  return parseEngineConfig(values);
}

/** workerData for a thread entry: the thread installs the config with `adoptEngineConfig`. */
export function withEngineConfig<T extends object>(data: T, config: EngineConfig = engineConfig()): T & { engineConfig: EngineConfig } {
  return { ...data, engineConfig: config };
}

/** In a thread entry: installs the config its parent passed in workerData (the thread's own defaults otherwise). */
export function adoptEngineConfig(workerData: unknown): void {
  const passed = (workerData as { engineConfig?: EngineConfig } | null | undefined)?.engineConfig;
  if (passed) useEngineConfig(passed);
}
