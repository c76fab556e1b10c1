/**
 * The app's client of a remote scrub service (SCRUB_SERVICE_URL set). Jobs and loads are rows in the shared
 * database and files live on the shared DATA_DIR, so the client only tells the service to pick them up;
 * countRecords and previewCsv read the local file directly.
 */
import { countRecords, previewCsv } from "./pipeline/read";
import type { ListStoreState, ManualLoadInput, ManualLoadResult, ScrubService } from "./service";

export interface HttpClientOptions {
  url: string;
  token: string;
  fetch?: typeof fetch;
}

export function createHttpScrubClient(o: HttpClientOptions): ScrubService {
  const base = o.url.replace(/\/$/, "");
  const f = o.fetch ?? fetch;
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await f(`${base}${path}`, {
      method,
      headers: { Authorization: `Bearer ${o.token}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    const data = text ? JSON.parse(text) : {};
    if (!res.ok) throw new Error(data.error ?? `scrub service answered ${res.status}`);
    return data as T;
  }
  return {
    kind: "http",
    async enqueue(jobId) {
      await call("POST", `/v1/jobs/${encodeURIComponent(jobId)}/enqueue`);
    },
    async enqueueListLoad(loadId) {
      await call("POST", `/v1/list-loads/${encodeURIComponent(loadId)}/enqueue`);
    },
    async waitFor(kind, id, timeoutMs = 10 * 60_000) {
      const deadline = Date.now() + timeoutMs;
      const p = kind === "job" ? `/v1/jobs/${encodeURIComponent(id)}` : `/v1/list-loads/${encodeURIComponent(id)}`;
      for (;;) {
        const r = await call<{ status: string }>("GET", p);
        if (r.status === "completed" || r.status === "failed") return r.status;
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${kind} ${id}`);
        await new Promise((res) => setTimeout(res, 200));
      }
    },
    countRecords: (p) => countRecords(p),
    previewCsv: (p, maxRows) => previewCsv(p, maxRows),
    loadNumbers: (input: ManualLoadInput) => call<ManualLoadResult>("POST", "/v1/list-loads/manual", input),
    listStoreStatus: () => call<ListStoreState[]>("GET", "/v1/lists"),
    rebuildLists: (listIds?: number[]) => call<ListStoreState[]>("POST", "/v1/lists/rebuild", { listIds }),
    async close() {},
  };
}
