/**
 * Prometheus metrics (decision 140), one registry per process, shared by the web app and the in-process
 * scrub service. Names and labels are a contract with ops/prometheus/alerts.yml and the Grafana dashboard:
 * labels hold route ids, statuses and list kinds, never raw paths, user ids or numbers.
 */
import client from "prom-client";

type Gauges = {
  queued: number;
  running: number;
  listAges: { list: string; seconds: number }[];
  /** Each list's freshness rule in seconds (absent: none reported). */
  listRules?: { list: string; seconds: number }[];
};

export interface Metrics {
  registry: client.Registry;
  httpDuration: client.Histogram<"route" | "method" | "status_class">;
  scrubJobs: client.Counter<"status">;
  scrubRows: client.Counter<"outcome">;
  scrubDuration: client.Histogram<string>;
  jobsQueued: client.Gauge<string>;
  jobsRunning: client.Gauge<string>;
  listLoads: client.Counter<"list" | "status">;
  listAge: client.Gauge<"list">;
  listMaxAge: client.Gauge<"list">;
  listStoreErrors: client.Counter<string>;
  lookupDuration: client.Histogram<string>;
  /** Lookups answered 503, by why: `store` (the list store did not answer or its copy is stale), `busy` (this process's or the scrub service's event loop ran the deadline out), `error` (anything else). */
  lookupUnavailable: client.Counter<"reason">;
  /** Readiness checks actually run (sharedReadiness: at most about one a second, however many ask /readyz). */
  readinessChecks: client.Counter<string>;
  webhookDeliveries: client.Counter<"outcome">;
  ready: client.Gauge<string>;
  /** Where the queue and list-age gauges read their values at scrape time (the database). */
  setGaugeSource(read: () => Promise<Gauges>): void;
  /** What dpt_ready reports at scrape time (the /readyz checks). */
  setReadinessSource(read: () => Promise<boolean>): void;
}

function create(): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  let readGauges: (() => Promise<Gauges>) | null = null;
  let readReady: (() => Promise<boolean>) | null = null;
  let pending: Promise<Gauges | null> | null = null;
  // One database read per scrape serves the three gauges.
  const gauges = () => (pending ??= (readGauges ? readGauges() : Promise.resolve(null)).catch(() => null).finally(() => setTimeout(() => (pending = null), 0)));

  const m: Metrics = {
    registry,
    httpDuration: new client.Histogram({
      name: "dpt_http_request_duration_seconds",
      help: "HTTP requests by route id, method and status class",
      labelNames: ["route", "method", "status_class"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    scrubJobs: new client.Counter({
      name: "dpt_scrub_jobs_total",
      help: "Scrub jobs finished, by final status",
      labelNames: ["status"],
      registers: [registry],
    }),
    scrubRows: new client.Counter({
      name: "dpt_scrub_rows_total",
      help: "Rows of completed scrub jobs, by outcome",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    scrubDuration: new client.Histogram({
      name: "dpt_scrub_duration_seconds",
      help: "Wall time of completed scrub jobs",
      buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800],
      registers: [registry],
    }),
    jobsQueued: new client.Gauge({
      name: "dpt_jobs_queued",
      help: "Scrub jobs waiting for a replica",
      registers: [registry],
      async collect() {
        this.set((await gauges())?.queued ?? 0);
      },
    }),
    jobsRunning: new client.Gauge({
      name: "dpt_jobs_running",
      help: "Scrub jobs running now",
      registers: [registry],
      async collect() {
        this.set((await gauges())?.running ?? 0);
      },
    }),
    listLoads: new client.Counter({
      name: "dpt_list_loads_total",
      help: "List loads finished, by list kind and status",
      labelNames: ["list", "status"],
      registers: [registry],
    }),
    listAge: new client.Gauge({
      name: "dpt_list_age_seconds",
      help: "Seconds since the registry date of each admin-loaded list (the freshness clock)",
      labelNames: ["list"],
      registers: [registry],
      async collect() {
        const g = await gauges();
        if (!g) return;
        this.reset();
        for (const a of g.listAges) this.set({ list: a.list }, a.seconds);
      },
    }),
    listMaxAge: new client.Gauge({
      name: "dpt_list_max_age_seconds",
      help: "The freshness rule of each admin list with one: the most seconds since its registry date a release may be used for calls (dnc 31 days, each state list its own)",
      labelNames: ["list"],
      registers: [registry],
      async collect() {
        const g = await gauges();
        if (!g?.listRules) return;
        this.reset();
        for (const r of g.listRules) this.set({ list: r.list }, r.seconds);
      },
    }),
    listStoreErrors: new client.Counter({
      name: "dpt_list_store_errors_total",
      help: "List store (Redis) errors met by scrubs, loads and lookups",
      registers: [registry],
    }),
    readinessChecks: new client.Counter({
      name: "dpt_readiness_checks_total",
      help: "Readiness checks run (database, migrations, list store, scrub service); /readyz shares one a second",
      registers: [registry],
    }),
    lookupUnavailable: new client.Counter({
      name: "dpt_lookup_unavailable_total",
      help: "Live lookups answered 503, by reason: store (the list store was late or stale), busy (an event loop was late), error",
      labelNames: ["reason"],
      registers: [registry],
    }),
    lookupDuration: new client.Histogram({
      name: "dpt_lookup_duration_seconds",
      help: "Live lookup (POST /api/v1/lookup) answer time",
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers: [registry],
    }),
    webhookDeliveries: new client.Counter({
      name: "dpt_webhook_deliveries_total",
      help: "Webhook delivery attempts, by outcome",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    ready: new client.Gauge({
      name: "dpt_ready",
      help: "1 when /readyz would answer 200 (database, migrations, list store, scrub service), else 0",
      registers: [registry],
      async collect() {
        this.set(readReady ? Number(await readReady().catch(() => false)) : 1);
      },
    }),
    setGaugeSource(read) {
      readGauges = read;
    },
    setReadinessSource(read) {
      readReady = read;
    },
  };
  return m;
}

const g = globalThis as unknown as { __dptMetrics?: Metrics };

/** The process's metrics (created on first use). */
export function metrics(): Metrics {
  g.__dptMetrics ??= create();
  return g.__dptMetrics;
}

/** "2xx", "4xx"… */
export const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;
