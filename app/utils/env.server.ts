import { z } from "zod";

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
});

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

/**
 * The origin of every absolute link we build: APP_URL, else (outside production, where boot refuses to
 * start without it) this machine's own http://localhost:PORT. Never the request's Host or X-Forwarded-*.
 */
export function appUrl(): string {
  const configured = env().APP_URL;
  if (configured) return configured.replace(/\/+$/, "");
  return `http://localhost:${env().PORT}`;
}
