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
import { LookupBusyError } from "./lists/lookup";
import path from "node:path";
import { isoDay } from "./lists/registry-date";
import type { CallImportResult } from "./calls/import";
import type { PublishedKey } from "./certificate/keys";
import type { BatchRow, BatchScrubService, ListStoreState, LookupAnswer, ManualLoadInput, ManualLoadResult } from "./service";

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
              reject(Object.assign(new Error(data.error ?? `scrub service answered ${res.statusCode}`), { status: res.statusCode, body: data }));
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

/**
 * A running service: SCRUB_SERVICE_URL (the app's client and the CLI's), or an embedded server's Unix socket (the
 * CLI's, when the server holds DATA_DIR). Through the socket the server reads a file where it lies and knows the
 * operator account; through a URL the file is sent and the job's owner must be named.
 */
export function createHttpScrubClient(o: HttpClientOptions): BatchScrubService {
  const call = jsonCaller(o);
  const postFile = filePoster(o);
  const local = !o.url && !!o.socketPath;
  /** Creates a job or load from a local file: the socket's server reads it where it is, a remote one is sent it. */
  const submit = async (p: string, params: Record<string, string | undefined>, inputPath: string) =>
    (local ? await call<{ id: string }>("POST", p, { inputPath, ...params }) : await postFile<{ id: string }>(p, params, inputPath)).id;
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
        const { status, body } = e as { status?: number; body?: { reason?: string; lateMs?: number; limitMs?: number } };
        // the service's event loop was late, not its store (issue #49): the same "busy" as in process
        if (status === 503 && body?.reason === "busy") throw new LookupBusyError(Number(body.lateMs) || 0, Number(body.limitMs) || 0);
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
    pollMs: 250,
    async operatorId() {
      if (!local) throw new Error("Pass --user ID (the job's owner).");
      return (await call<{ id: string }>("GET", "/v1/users/operator")).id;
    },
    submitScrub: (input) =>
      submit(
        "/v1/jobs",
        {
          userId: input.userId,
          fileName: input.fileName,
          suppressionType: input.suppressionType,
          column: input.columnName ?? undefined,
          sheet: input.sheet ?? undefined,
          containerId: input.containerId != null ? String(input.containerId) : undefined,
          states: input.states.length ? input.states.join(",") : undefined,
          ...(input.callingWindow ? { callingWindow: "1" } : {}),
          // the order's evaluation instant, under the face's name for it
          ...(input.evaluatedAt ? { callingAt: input.evaluatedAt.toISOString() } : {}),
          ...(input.exemptionListId != null ? { exemptionListId: String(input.exemptionListId) } : {}),
          // the calls counted in the calling columns (decision 191)
          ...(input.purpose !== "telemarketing" ? { purpose: input.purpose } : {}),
          ...(input.subject !== "default" ? { subject: input.subject } : {}),
          ...(input.debtColumn ? { debtColumn: input.debtColumn } : {}),
        },
        input.inputPath,
      ),
    scrubJob: (id) => call<BatchRow>("GET", `/v1/jobs/${id}`),
    jobTimings: () => null,
    submitListLoad: (input) =>
      submit(
        "/v1/list-loads",
        {
          listId: String(input.listId),
          mode: input.mode,
          userId: input.userId ?? undefined,
          fileName: path.basename(input.inputPath),
          registryDate: input.registryDate ? isoDay(input.registryDate) : undefined,
        },
        input.inputPath,
      ),
    listLoad: (id) => call<BatchRow>("GET", `/v1/list-loads/${id}`),
    async idle() {},
    async adminListId(kind) {
      const lists = await call<{ listId: number; kind: string }[]>("GET", "/v1/lists");
      const l = lists.find((x) => x.kind === kind);
      if (!l) throw new Error(`No ${kind} list`);
      return l.listId;
    },
    // the service checks the list's owner when it creates the job
    exemptionListFromFile: async (userId, name, file) => Number(await submit("/v1/exemption-lists", { userId, name }, file)),
    importCalls: async (userId, file, zone) => {
      const params = { userId, name: path.basename(file), ...(zone ? { zone } : {}) };
      return local
        ? await call<CallImportResult>("POST", "/v1/call-files", { inputPath: file, ...params })
        : await postFile<CallImportResult>("/v1/call-files", params, file);
    },
    async signingKeys({ rotate }) {
      if (!local) throw new Error("Run this on the server (it reads the database), not against SCRUB_SERVICE_URL.");
      if (rotate) await call("POST", "/v1/certificate-keys/rotate");
      return { keys: await call<PublishedKey[]>("GET", "/v1/certificate-keys"), rotated: null };
    },
    async close() {},
  };
}
