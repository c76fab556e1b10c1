import { z } from "zod";
import { parseEngineConfig, useEngineConfig, type EngineConfig } from "scrub-service";

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().positive().default(3000),
  /** Public base URL of every absolute link we build (e-mails, API answers); required in production. */
  APP_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default("./data"),
  REDIS_URL: z.string().url().optional(),
  /** host:port,host:port,… of a Redis Cluster (wins over REDIS_URL; decision 112). */
  REDIS_CLUSTER_NODES: z.string().optional(),
  /** host:port,… of the Sentinels watching a primary/replica pair, and the primary's name (decision 113). */
  REDIS_SENTINELS: z.string().optional(),
  REDIS_SENTINEL_NAME: z.string().optional(),
  REDIS_SENTINEL_PASSWORD: z.string().optional(),
  SCRUB_SERVICE_URL: z.string().url().optional(),
  SCRUB_SERVICE_TOKEN: z.string().min(16).optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Data Purging Tool <no-reply@localhost>"),
  /** Secret for signing cookies; required in production. */
  SESSION_SECRET: z.string().min(16).optional(),
  /** Create the demo SuperAdmin on start (default: on in embedded mode). */
  DEMO_ADMIN: z.enum(["0", "1"]).optional(),
  /** Largest accepted upload in bytes. */
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(500 * 1024 * 1024),
  /** Bank-transfer instructions shown to customers (billing). */
  BANK_NAME: z.string().default("First Demo Bank"),
  BANK_ACCOUNT_NAME: z.string().default("Data Purging Tool LLC"),
  BANK_ACCOUNT: z.string().default("000123456789"),
  BANK_ROUTING: z.string().default("021000021"),
  BANK_SWIFT: z.string().optional(),
  /** Serve cookies with the Secure flag (default: on in production). */
  SECURE_COOKIES: z.enum(["0", "1"]).optional(),
  /** Scrubs one user may have queued or running at once (docs/decisions/081). */
  MAX_ACTIVE_SCRUBS_PER_USER: z.coerce.number().int().positive().default(5),
  /** Key sealing webhook signing secrets (unset: a random key kept in the database). */
  WEBHOOK_ENCRYPTION_KEY: z.string().optional(),
  /** `0`: this process delivers no webhooks (another one does). */
  WEBHOOK_DISPATCHER: z.string().optional(),
  /** Webhook retries: first pause, attempts, the dispatcher's poll and one delivery's timeout (decision 052). */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().positive().default(1000),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  WEBHOOK_POLL_MS: z.coerce.number().int().positive().default(2000),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** `1`: webhooks may go to private addresses in production too (read live: webhookTargetsMayBePrivate). */
  WEBHOOK_ALLOW_PRIVATE: z.enum(["0", "1"]).optional(),
  /** Express's `trust proxy` (server.mjs takes it from serverSettings). */
  TRUST_PROXY: z.string().optional(),
  /** Where server.mjs finds the build: the one variable it reads itself, before the app (and this schema) loads. */
  BUILD_DIR: z.string().default("build"),
});

/** The app's variables (the README's configuration table is checked against them and the engine's). */
export const appEnvSchema = schema;

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  if (env.NODE_ENV === "production" && !env.SESSION_SECRET && env.DATABASE_URL) {
    throw new Error("Invalid environment configuration:\n  SESSION_SECRET: required in production with DATABASE_URL");
  }
  if (env.NODE_ENV === "production" && !env.APP_URL) {
    throw new Error(
      "Invalid environment configuration:\n  APP_URL: required in production; set it to the public address customers use " +
        "(e.g. https://app.example.com). Links in e-mails are built from it, never from a request's Host header.",
    );
  }
  if (env.SCRUB_SERVICE_URL && !env.SCRUB_SERVICE_TOKEN) {
    throw new Error("Invalid environment configuration:\n  SCRUB_SERVICE_TOKEN: required when SCRUB_SERVICE_URL is set");
  }
  return env;
}

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Forgets the parsed environment: tests that change a variable between cases. */
export function resetEnv(): void {
  cached = undefined;
}

let engineCached: EngineConfig | undefined;

/**
 * The engine's configuration in the web server (scrub-service's EngineConfig): parsed once from this process's
 * environment and installed for the engine's modules and threads; boot asks for it first, so a bad value stops
 * the start naming the variable. getScrubService passes it to the in-process service.
 */
export function engineSettings(): EngineConfig {
  if (!engineCached) {
    try {
      engineCached = useEngineConfig(parseEngineConfig(process.env));
    } catch (e) {
      const lines = (e as Error).message.split("\n").map((l) => `  ${l}`);
      throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
    }
  }
  return engineCached;
}

/**
 * Whether webhooks may go to private addresses: outside production, or with WEBHOOK_ALLOW_PRIVATE=1. Read at run
 * time, uncached and through a variable: the server bundle replaces the literal `process.env.NODE_ENV` with the
 * build's mode, but the decision belongs to how the process was started (and tests switch it per case).
 */
export function webhookTargetsMayBePrivate(): boolean {
  const runtime: Record<string, string | undefined> = process.env;
  if (runtime.WEBHOOK_ALLOW_PRIVATE === "1") return true;
  return runtime.NODE_ENV !== "production";
}

/**
 * The origin of every absolute link we build: APP_URL, else (outside production, where boot refuses to
 * start without it) this machine's own http://localhost:PORT. Never the request's Host or X-Forwarded-*.
 */
export function appUrl(): string {
  const configured = env().APP_URL;
  if (configured) return configured.replace(/\/+$/, "");
  return `http://localhost:${env().PORT}`;
}

/** What the web server (server.mjs) needs before it listens, parsed here once with everything else (decision 188). */
export interface ServerSettings {
  port: number;
  production: boolean;
  maxUploadBytes: number;
  trustProxy: string | undefined;
  /** After SIGTERM, how long /readyz answers 503 before the server stops taking connections. */
  shutdownGraceMs: number;
  /** Leave console output as plain text (LOG_PRETTY=1) instead of one JSON object a line. */
  logPretty: boolean;
}

export function serverSettings(): ServerSettings {
  return serverSettingsOf(env(), engineSettings());
}

export function serverSettingsOf(e: Env, engine: EngineConfig): ServerSettings {
  const production = e.NODE_ENV === "production";
  return {
    port: e.PORT,
    production,
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    trustProxy: e.TRUST_PROXY,
    shutdownGraceMs: engine.SHUTDOWN_GRACE_MS ?? (production ? 5000 : 0),
    logPretty: engine.LOG_PRETTY === "1",
  };
}
