/**
 * The app's client of a remote scrub service (SCRUB_SERVICE_URL set). Jobs and loads are rows in the shared
 * database and files live on the shared DATA_DIR, so the client only tells the service to pick them up;
 * countRecords and previewCsv read the local file directly.
 */
import { currentLogContext } from "./ops/log";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import { countRecords, previewCsv } from "./pipeline/read";
import { ListStoreError } from "./lists/store";
import type { ListStoreState, LookupAnswer, ManualLoadInput, ManualLoadResult, ScrubService } from "./service";

export interface HttpClientOptions {
  /** http(s)://host:port of the service, or unset with socketPath. */
  url?: string;
  /** Unix socket of an embedded server's service (DATA_DIR/scrub.sock). */
  socketPath?: string;
  token?: string;
}

export type JsonCall = <T>(method: string, path: string, body?: unknown) => Promise<T>;
/** POSTs a local file as the request body (streamed), the parameters in the query string; answers JSON. */
export type FilePost = <T>(path: string, params: Record<string, string | undefined>, file: string) => Promise<T>;

type Body = { json: unknown } | { file: string } | undefined;

function requester(o: HttpClientOptions) {
  return <T>(method: string, p: string, body: Body) =>
    new Promise<T>((resolve, reject) => {
      const payload = body && "json" in body ? JSON.stringify(body.json) : undefined;
      const headers: Record<string, string> = {};
      if (o.token) headers.Authorization = `Bearer ${o.token}`;
      const requestId = currentLogContext().requestId;
      if (requestId) headers["X-Request-Id"] = requestId;
      if (payload !== undefined) headers["Content-Type"] = "application/json";
      if (body && "file" in body) {
        headers["Content-Type"] = "application/octet-stream";
        headers["Content-Length"] = String(fs.statSync(body.file).size);
      }
      const target = o.url ? new URL(p, o.url.replace(/\/?$/, "/")) : null;
      const lib = target?.protocol === "https:" ? https : http;
      const req = lib.request(
        target
          ? { method, hostname: target.hostname, port: target.port, path: target.pathname + target.search, headers }
          : { method, socketPath: o.socketPath, path: p, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let data: { error?: string } = {};
            try {
              data = text ? JSON.parse(text) : {};
            } catch {
              data = { error: text };
            }
            if ((res.statusCode ?? 500) >= 400) {
              reject(Object.assign(new Error(data.error ?? `scrub service answered ${res.statusCode}`), { status: res.statusCode }));
            } else resolve(data as T);
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      if (body && "file" in body) {
        const file = fs.createReadStream(body.file);
        file.on("error", (e) => req.destroy(e));
        file.pipe(req);
      } else req.end(payload);
    });
}

export function jsonCaller(o: HttpClientOptions): JsonCall {
  const send = requester(o);
  return <T>(method: string, p: string, body?: unknown) => send<T>(method, p, body !== undefined ? { json: body } : undefined);
}

export function filePoster(o: HttpClientOptions): FilePost {
  const send = requester(o);
  return <T>(p: string, params: Record<string, string | undefined>, file: string) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, v);
    return send<T>("POST", `${p}?${q}`, { file });
  };
}

export function createHttpScrubClient(o: HttpClientOptions): ScrubService {
  const call = jsonCaller(o);
  return {
    kind: "http",
    async enqueue(jobId) {
      await call("POST", `/v1/jobs/${encodeURIComponent(jobId)}/enqueue`);
    },
    async enqueueListLoad(loadId) {
      await call("POST", `/v1/list-loads/${encodeURIComponent(loadId)}/enqueue`);
    },
    async waitFor(kind: "job" | "load", id: string, timeoutMs = 10 * 60_000) {
      const deadline = Date.now() + timeoutMs;
      const p = kind === "job" ? `/v1/jobs/${encodeURIComponent(id)}` : `/v1/list-loads/${encodeURIComponent(id)}`;
      for (;;) {
        const r = await call<{ status: string }>("GET", p);
        if (r.status === "completed" || r.status === "failed") return r.status;
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${kind} ${id}`);
        await new Promise((res) => setTimeout(res, 200));
      }
    },
    countRecords: (p, opts) => countRecords(p, opts),
    previewCsv: (p, maxRows, opts) => previewCsv(p, maxRows, opts),
    loadNumbers: (input: ManualLoadInput) => call<ManualLoadResult>("POST", "/v1/list-loads/manual", input),
    listStoreStatus: () => call<ListStoreState[]>("GET", "/v1/lists"),
    rebuildLists: (listIds?: number[]) => call<ListStoreState[]>("POST", "/v1/lists/rebuild", { listIds }),
    async lookup(input) {
      try {
        return await call<LookupAnswer>("POST", "/v1/lookup", input);
      } catch (e) {
        // The service's store could not serve a list (503), or the service did not answer: fail closed.
        const status = (e as { status?: number }).status;
        if (status === undefined || status === 503) throw new ListStoreError(`The scrub service could not look the numbers up: ${(e as Error).message}`);
        throw e;
      }
    },
    async ready() {
      try {
        await call("GET", "/readyz");
        return { status: "ready", checks: { scrubService: "ok" } };
      } catch (e) {
        const status = (e as { status?: number }).status;
        return { status: "not ready", checks: { scrubService: status === 503 ? "not ready" : "not answering" } };
      }
    },
    async close() {},
  };
}
