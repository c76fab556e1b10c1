/**
 * The scrub service's HTTP API (internal: a bearer token on TCP; owner-only Unix socket in embedded mode).
 *
 *   POST /v1/jobs?userId&fileName&suppressionType[&column&sheet&containerId&states=FL,TX&callingWindow=1&callingAt=ISO&exemptionListId=N
 *        &purpose=telemarketing|debt-collection&subject=S&debtColumn=NAME]
 *        (a scrub order, order.ts: callingAt is its evaluatedAt, with callingWindow=1 or exemptionListId only; 404 when
 *        the container or the exemption list is not userId's)
 *        body: the file (streamed)
 *        (on the Unix socket also JSON {inputPath, …} naming a local file)            → 202 {id}
 *   POST /v1/jobs/:id/enqueue        → 202          GET /v1/jobs/:id → the job row (status, progress, counts, files)
 *   GET  /v1/jobs/:id/files/:kind    → the good|bad|invalid CSV (only once completed)
 *   POST /v1/list-loads?listId&mode&fileName[&userId&registryDate=YYYY-MM-DD]  body: the file → 202 {id}
 *        (mode add|remove|replace|changes; registryDate: the DNC and state lists only, default: the list keeps its release date, a first load the load time)
 *   POST /v1/list-loads/:id/enqueue  GET /v1/list-loads/:id    POST /v1/list-loads/manual (JSON ManualLoadInput)
 *   GET  /v1/lists                   POST /v1/lists/rebuild {listIds?}                 GET /healthz
 *   POST /v1/lookup {userId, numbers} → LookupAnswer (503 when a list's copy cannot be read: fail closed)
 *   GET  /v1/certificate-keys        POST /v1/certificate-keys/rotate  (GET /v1/jobs/:id includes its certificate)
 *   POST /v1/exemption-lists {userId, name, text} → 201 {id} (a new exemption list, every row loaded or none: 400)
 *   POST /v1/call-files {userId, name, zone?} body: a call file → 201 {format, rows, recorded, ignored} (every row or none: 400)
 *   GET  /v1/users/operator          → {id} of the operator account that owns CLI jobs (Unix socket only)
 */
import { OPS_PATHS, requestIdFrom, serveOps } from "./ops/endpoints";
import { sharedReadiness } from "./ops/readiness";
import { log, withLogContext } from "./ops/log";
import { metrics, statusClass } from "./ops/metrics";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { ORDER_WORDS, parseScrubOrder, type ScrubOrderInput } from "./order";
import { StaleListsRefusal } from "./lists/freshness";
import type { DbHandle } from "db/client";
import { isSuppressionType, suppressionTypeChoices, takesRegistryDate } from "./list-types";
import { createListLoad, createScrubJob, ScrubOrderRefusal, type LookupAnswer, type ManualLoadInput, type ScrubService } from "./service";
import { isInputFormatError } from "./pipeline/input/errors";
import type { ListLoadMode } from "db/schema";
import { publishedKeys, rotateSigningKey } from "./certificate/keys";
import { operatorAccountId } from "./operator-account";
import { checkLookupInput, LookupBusyError } from "./lists/lookup";
import { ListStoreError } from "./lists/store";
import { parseRegistryDate } from "./lists/registry-date";
import { createExemptionList, ExemptionInputError, loadExemptions } from "./exemptions";
import { readExemptionRows } from "./exemption-files/file";
import { importCallFileOrThrow } from "./calls/import";

export interface HttpOptions {
  handle: DbHandle;
  dataDir: string;
  /** Required on TCP; the Unix socket relies on file permissions. */
  token?: string;
  /** Unix socket: callers may name local files instead of uploading them. */
  local?: boolean;
  /** True once shutdown has begun: /readyz answers 503 from then on. */
  stopping?: () => boolean;
}

const LIST_LOAD_MODES: readonly ListLoadMode[] = ["add", "remove", "replace", "changes"];
const isListLoadMode = (m: unknown): m is ListLoadMode => LIST_LOAD_MODES.includes(m as ListLoadMode);

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** More fields of the error body (the lookup's busy 503 says why and how late). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  sendText(
    res,
    status,
    JSON.stringify(body, (_k, v) => (typeof v === "bigint" ? Number(v) : v)),
  );
}

function sendText(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(text);
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 50 * 1024 * 1024) throw new HttpError(413, "Request body too large.");
    chunks.push(c as Buffer);
  }
  if (!size) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new HttpError(400, "Invalid JSON.");
  }
}

async function saveUpload(req: http.IncomingMessage, dataDir: string): Promise<string> {
  const dir = path.join(dataDir, "uploads", "service");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${crypto.randomUUID()}.csv`);
  await pipeline(req, fs.createWriteStream(file));
  return file;
}

/**
 * A job or list-load submission: parameters from a JSON body or the query string, and the input file —
 * streamed as the request body, or (local socket only) named by `inputPath` in a JSON body.
 */
async function readSubmission(
  req: http.IncomingMessage,
  q: URLSearchParams,
  o: Pick<HttpOptions, "local" | "dataDir">,
): Promise<{ get: (k: string) => string | undefined; inputPath: string }> {
  const json = (req.headers["content-type"] ?? "").includes("application/json");
  const body = json ? await readJson(req) : {};
  const get = (k: string) => (body[k] as string | undefined) ?? q.get(k) ?? undefined;
  if (!json) return { get, inputPath: await saveUpload(req, o.dataDir) };
  if (!o.local) throw new HttpError(400, "Upload the file as the request body.");
  const inputPath = path.resolve(String(get("inputPath") ?? ""));
  if (!fs.existsSync(inputPath)) throw new HttpError(400, `No such file: ${inputPath}`);
  return { get, inputPath };
}

/**
 * A registry date stated over HTTP: YYYY-MM-DD (or the app's Date as JSON, an ISO time at midnight UTC),
 * checked like the DNC form and the CLI check it; absent → null (the load time).
 */
function statedRegistryDate(value: unknown): Date | null {
  if (value == null || value === "") return null;
  const text = String(value).replace(/^(\d{4}-\d{2}-\d{2})T00:00:00(\.000)?Z$/, "$1");
  const r = parseRegistryDate(text);
  if (!r.ok) throw new HttpError(400, r.message);
  return r.date;
}

function tokenOk(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith("Bearer ") ? header.slice(7) : "");
  const want = Buffer.from(token);
  return given.length === want.length && crypto.timingSafeEqual(given, want);
}

export function createHandler(service: ScrubService, o: HttpOptions) {
  const db = o.handle.db;
  const requireDncList = async (listId: number) => {
    const list = await db.selectFrom("lists").select("kind").where("id", "=", listId).executeTakeFirst();
    if (!takesRegistryDate(list?.kind ?? ""))
      throw new HttpError(400, "registryDate applies to the DNC list, the state lists and Canada's National DNCL only.");
  };
  const ready = sharedReadiness(() => service.ready());
  return async (req: http.IncomingMessage, res: http.ServerResponse) => {
    try {
      const url = new URL(req.url ?? "/", "http://scrub");
      const parts = url.pathname.split("/").filter(Boolean);
      const q = url.searchParams;
      if (await serveOps(req, res, { ready, stopping: () => o.stopping?.() ?? false })) return;
      if (!o.local) {
        if (!o.token || !tokenOk(req.headers.authorization, o.token)) throw new HttpError(401, "Unauthorized.");
      }
      const m = req.method ?? "GET";
      if (parts[0] !== "v1") throw new HttpError(404, "Not found.");
      const [, resource, id, sub, kind] = parts;

      if (resource === "jobs" && !id && m === "POST") {
        const { get, inputPath } = await readSubmission(req, q, o);
        const userId = get("userId");
        const type = get("suppressionType");
        if (!userId) throw new HttpError(400, "userId is required.");
        if (!isSuppressionType(type)) throw new HttpError(400, `suppressionType must be ${suppressionTypeChoices()}.`);
        const states = get("states");
        // The order, parsed once (order.ts): callingAt is its evaluation instant, allowed with callingWindow=1 or an
        // exemptionListId only. The engine's face takes any instant (the CLI's audits and plans: decision 174; the web
        // and the API are held to "now … the lists' validity" at the app's intake).
        const parsed = parseScrubOrder(
          {
            userId,
            inputPath,
            fileName: get("fileName") ?? path.basename(inputPath),
            suppressionType: type,
            columnName: get("column") ?? null,
            sheet: get("sheet"),
            containerId: get("containerId"),
            states: states
              ? String(states)
                  .split(",")
                  .map((s) => s.trim())
                  .filter(Boolean)
              : [],
            callingWindow: ["1", "true"].includes(String(get("callingWindow") ?? "")),
            exemptionListId: get("exemptionListId"),
            evaluatedAt: get("callingAt") || null,
            purpose: (get("purpose") || undefined) as ScrubOrderInput["purpose"],
            subject: get("subject") || null,
            debtColumn: get("debtColumn") || null,
          },
          ORDER_WORDS.service,
        );
        if (!parsed.ok) throw new HttpError(400, parsed.message);
        const order = parsed.order;
        const dropUpload = () => {
          if (!(req.headers["content-type"] ?? "").includes("application/json")) fs.rmSync(inputPath, { force: true }); // the upload it sent
        };
        let jobId: string;
        try {
          jobId = await createScrubJob(db, {
            ...order,
            usageReserved: await service.countRecords(inputPath, { sheet: order.sheet, dataRows: true }),
            source: "api",
          });
        } catch (e) {
          // refused once, in the engine's intake (issue #45): a container or exemption list not its owner's, or a
          // list past its rule while "refuse stale DNC" is on (the job's start checks it again)
          if (e instanceof StaleListsRefusal) {
            dropUpload();
            throw new HttpError(409, e.message);
          }
          if (!(e instanceof ScrubOrderRefusal)) throw e;
          dropUpload();
          throw new HttpError(404, e.message);
        }
        await service.enqueue(jobId);
        return send(res, 202, { id: jobId });
      }
      if (resource === "jobs" && id && sub === "enqueue" && m === "POST") {
        await service.enqueue(id);
        return send(res, 202, { id });
      }
      if (resource === "jobs" && id && !sub && m === "GET") {
        const job = await db.selectFrom("scrub_jobs").selectAll().where("id", "=", id).executeTakeFirst();
        if (!job) throw new HttpError(404, "No such job.");
        const files = await db.selectFrom("result_files").selectAll().where("job_id", "=", id).execute();
        const cert = await db.selectFrom("scrub_certificates").select("document").where("job_id", "=", id).executeTakeFirst();
        return send(res, 200, { ...job, files, certificate: cert?.document ?? null });
      }
      if (resource === "certificate-keys" && !id && m === "GET") return send(res, 200, await publishedKeys(db));
      if (resource === "certificate-keys" && id === "rotate" && m === "POST") {
        const { key } = await rotateSigningKey(db);
        return send(res, 200, { keyId: key.id });
      }
      if (resource === "jobs" && id && sub === "files" && kind && m === "GET") {
        const f = await db
          .selectFrom("result_files")
          .innerJoin("scrub_jobs", "scrub_jobs.id", "result_files.job_id")
          .select(["result_files.path", "result_files.file_name"])
          .where("result_files.job_id", "=", id)
          .where("result_files.kind", "=", kind as "good")
          .where("scrub_jobs.status", "=", "completed")
          .executeTakeFirst();
        if (!f) throw new HttpError(404, "No such file.");
        res.writeHead(200, {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="${f.file_name.replace(/"/g, "")}"`,
        });
        await pipeline(fs.createReadStream(f.path), res);
        return;
      }
      if (resource === "list-loads" && id === "manual" && m === "POST") {
        const body = await readJson(req);
        const registryDate = statedRegistryDate(body.registryDate);
        if (registryDate) await requireDncList(Number(body.listId));
        return send(res, 200, await service.loadNumbers({ ...(body as unknown as ManualLoadInput), registryDate }));
      }
      if (resource === "list-loads" && !id && m === "POST") {
        const { get, inputPath } = await readSubmission(req, q, o);
        const mode = get("mode");
        if (!isListLoadMode(mode)) throw new HttpError(400, `mode must be ${LIST_LOAD_MODES.join(", ")}.`);
        const listId = Number(get("listId"));
        if (!Number.isInteger(listId)) throw new HttpError(400, "listId is required.");
        const registryDate = statedRegistryDate(get("registryDate"));
        if (registryDate) await requireDncList(listId);
        const loadId = await createListLoad(db, {
          listId,
          mode,
          userId: get("userId") ?? null,
          fileName: get("fileName") ?? path.basename(inputPath),
          inputPath,
          registryDate,
        });
        await service.enqueueListLoad(loadId);
        return send(res, 202, { id: loadId });
      }
      if (resource === "list-loads" && id && sub === "enqueue" && m === "POST") {
        await service.enqueueListLoad(id);
        return send(res, 202, { id });
      }
      if (resource === "list-loads" && id && !sub && m === "GET") {
        const load = await db.selectFrom("list_loads").selectAll().where("id", "=", id).executeTakeFirst();
        if (!load) throw new HttpError(404, "No such list load.");
        return send(res, 200, load);
      }
      if (resource === "lists" && !id && m === "GET") return send(res, 200, await service.listStoreStatus());
      if (resource === "lists" && id === "rebuild" && m === "POST") {
        const body = await readJson(req);
        return send(res, 200, await service.rebuildLists(body.listIds as number[] | undefined));
      }
      if (resource === "lookup" && !id && m === "POST") {
        let input;
        try {
          input = checkLookupInput(await readJson(req));
        } catch (e) {
          if (e instanceof RangeError) throw new HttpError(400, e.message);
          throw e;
        }
        try {
          const answer: LookupAnswer = await service.lookup(input);
          return sendText(res, 200, JSON.stringify(answer)); // numbers only: no bigint to convert, no replacer per value
        } catch (e) {
          if (e instanceof ListStoreError) throw new HttpError(503, e.message, { reason: "store" });
          // this process's event loop, not the store, ran the deadline out: the client answers "busy", not "store"
          if (e instanceof LookupBusyError) throw new HttpError(503, e.message, { reason: "busy", lateMs: e.lateMs, limitMs: e.limitMs });
          throw e;
        }
      }
      if (resource === "exemption-lists" && !id && m === "POST") {
        // the CLI's --exemptions FILE (streamed as the body, or named through the local socket): a new list of the
        // user's, read on the exemption thread and loaded with every row or none
        const { get, inputPath } = await readSubmission(req, q, o);
        const userId = get("userId") ?? "";
        if (!userId) throw new HttpError(400, "userId is required.");
        try {
          const rows = await readExemptionRows({ path: inputPath });
          const list = await createExemptionList(db, { userId, name: String(get("name") ?? "exemptions.csv").slice(0, 200) });
          await loadExemptions(db, { listId: list.id, userId, mode: "replace", rows });
          return send(res, 201, { id: String(list.id) });
        } catch (e) {
          if (e instanceof ExemptionInputError) throw new HttpError(400, `The exemption file was not loaded:\n${e.errors.join("\n")}`);
          throw e;
        } finally {
          if (!o.local || !get("inputPath")) await fs.promises.rm(inputPath, { force: true });
        }
      }
      if (resource === "call-files" && !id && m === "POST") {
        // the CLI's scrub --calls FILE (decision 191): the file's records added to the user's history, every row or none
        const { get, inputPath } = await readSubmission(req, q, o);
        const userId = get("userId") ?? "";
        if (!userId) throw new HttpError(400, "userId is required.");
        try {
          const r = await importCallFileOrThrow(db, {
            path: inputPath,
            userId,
            zone: get("zone") || null,
            name: String(get("name") ?? "calls.csv").slice(0, 200),
          });
          return send(res, 201, r);
        } catch (e) {
          if (e instanceof Error && !(e as NodeJS.ErrnoException).code) throw new HttpError(400, e.message);
          throw e;
        } finally {
          if (!o.local || !get("inputPath")) await fs.promises.rm(inputPath, { force: true });
        }
      }
      if (resource === "users" && id === "operator" && m === "GET" && o.local) {
        return send(res, 200, { id: await operatorAccountId(db) });
      }
      throw new HttpError(404, "Not found.");
    } catch (e) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (e instanceof HttpError) return send(res, e.status, { error: e.message, ...e.extra });
      // a file the decoders refuse (a zip bomb, a password-protected workbook, an unknown sheet): its own message
      if (isInputFormatError(e)) return send(res, 422, { error: e.message });
      return send(res, 500, { error: (e as Error).message });
    }
  };
}

/**
 * The app's request id (X-Request-Id: callers hold the service token) or a new one on every log line of the
 * request, an access line and the duration histogram (route: the resource, never ids).
 */
function withRequestContext(handler: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const pathname = (req.url ?? "/").split("?")[0];
    if (OPS_PATHS.has(pathname)) return void handler(req, res);
    const requestId = requestIdFrom(req.headers["x-request-id"], true); // callers hold the service token
    res.setHeader("X-Request-Id", requestId);
    const route = pathname.split("/").filter(Boolean).slice(0, 2).join("/") || "/";
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics().httpDuration.observe({ route, method: req.method ?? "GET", status_class: statusClass(res.statusCode) }, seconds);
      log().info({ requestId, method: req.method, route, status: res.statusCode, ms: Math.round(seconds * 1000) }, `${req.method} ${route} ${res.statusCode}`);
    });
    withLogContext({ requestId }, () => void handler(req, res));
  };
}

/** Listens on TCP (standalone service). */
export function listenHttp(service: ScrubService, o: HttpOptions & { port: number; host?: string }) {
  if (!o.token) throw new Error("SCRUB_SERVICE_TOKEN is required for the HTTP scrub service.");
  const server = http.createServer(withRequestContext(createHandler(service, o)));
  return new Promise<{ server: http.Server; close(): Promise<void> }>((resolve) => {
    server.listen(o.port, o.host ?? "0.0.0.0", () => resolve({ server, close: () => new Promise<void>((r) => server.close(() => r())) }));
  });
}

export function socketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), "scrub.sock");
}

/** Embedded mode: an owner-only Unix socket in DATA_DIR for the CLI. */
export function listenLocalSocket(service: ScrubService, o: Omit<HttpOptions, "local" | "token">) {
  const file = socketPath(o.dataDir);
  fs.rmSync(file, { force: true });
  const server = http.createServer(createHandler(service, { ...o, local: true }));
  return new Promise<{ close(): Promise<void> }>((resolve, reject) => {
    server.once("error", reject);
    server.listen(file, () => {
      fs.chmodSync(file, 0o600);
      resolve({
        close: () =>
          new Promise<void>((r) =>
            server.close(() => {
              fs.rmSync(file, { force: true });
              r();
            }),
          ),
      });
    });
  });
}
