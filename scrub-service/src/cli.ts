/**
 * Batch work from the command line.
 *   npm run scrub -- --input FILE --type LitigationOnly|DNCAndLitigation [--column NAME] [--sheet NAME] [--container ID]
 *                    [--states FL,TX] [--calling-window] [--exemptions FILE | --exemptions-list ID] [--at ISO-8601]
 *                    --out DIR [--user ID]
 *                    (no --user: the built-in operator account owns the job)
 *   npm run lists -- load|remove|replace|apply-changes --list litigation|dnc|dnc-tx …|container:ID --input FILE
 *     [--registry-date YYYY-MM-DD] (dnc and the state lists: the day of the download, starts its clock; default: the list keeps its release date, a first load the load time)
 *     (FILE: CSV, one number per line or the FTC full list; CSV/.xlsx/.zip/.gz; apply-changes: an FTC change list)
 *   npm run lists -- rebuild [--list …]        npm run lists -- status
 *   npm run lists -- emergency add --states LA [--area-codes 504,985] --from YYYY-MM-DD --to YYYY-MM-DD --source URL
 *     [--authority TEXT] | emergency list [--all] | emergency remove --id N     (emergency no-call periods, decision 181)
 *   npm run calls -- import --input FILE [--user ID] [--tz ZONE]     (call history, decision 185)
 *   npm run verify -- --certificate cert.json [--input original.csv] [--results DIR] [--keys keys.json|URL]
 *   npm run verify -- --ledger ledger.json [--keys keys.json|URL]     (a decision ledger export, decision 197)
 *   npm run verify -- --dossier dossier.json [--keys …]  npm run dossier -- --number N [--user ID] [--from D] [--to D] --out F.json|F.pdf
 *   npm run certificate-key [-- rotate]       (prints the public keys that sign certificates; rotate makes a new one)
 * The scrub writes certificate.json (the signed scrub certificate) beside good.csv, bad.csv and invalid.csv.
 * A progress bar on a terminal (stderr), a JSON summary on stdout at the end.
 *
 * Where the work runs: SCRUB_SERVICE_URL set → that service (HTTP). Otherwise with DATABASE_URL → in this
 * process. Embedded (PGlite): if a server holds DATA_DIR it goes through that server's service (Unix socket
 * DATA_DIR/scrub.sock); with no server running it opens the directory itself, under the lock.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { migrateToLatest, openDatabase, type DbHandle } from "db/client";
import { DataDirLockedError } from "db/dir-lock";
import { createHttpScrubClient } from "./http-client";
import { socketPath } from "./http";
import { createInProcessScrubService } from "./in-process";
import { redisTargetFromEnv } from "./lists/redis-client";
import { callCountersFor, closeCallCountersOf } from "./calls/counters-setup";
import { parseEngineConfig, useEngineConfig, type EngineConfig } from "./config";
import {
  ADMIN_LIST_KINDS,
  isAdminListKind,
  isSuppressionType,
  orList,
  STATE_LIST_KINDS,
  SUPPRESSION_TYPE_NAMES,
  suppressionTypeChoices,
  takesRegistryDate,
} from "./list-types";
import type { BatchScrubService } from "./service";
import { parseOptionalRegistryDate } from "./lists/registry-date";
import { OPERATOR_EMAIL } from "./operator-account";
import { keysFromJson, verifyWithFiles } from "./certificate/verify-files";
import { verifyLedgerText } from "./ledger/chain";
import { buildDossier } from "./ledger/dossier";
import { dossierPdf } from "./ledger/dossier-pdf";
import { verifyDossierText } from "./ledger/dossier-doc";
import { parsePhone } from "./numbers/normalize";
import type { PublishedKey } from "./certificate/keys";
import type { ScrubCertificate } from "./certificate/document";
import pino from "pino";
import { createLogger, setLogger } from "./ops/log";
import { ORDER_WORDS, parseScrubOrder } from "./order";
import { CALL_PURPOSES, type CapPurpose } from "./calling/caps";
import { CALLING_RULES_VERSION } from "./calling/rules";
import { parseEmergencyPeriod } from "./calling/emergency";
import { insertEmergencyPeriod, listEmergencyPeriods, removeEmergencyPeriod, type StoredEmergencyPeriod } from "./emergency-periods";
import { callImportProblems, importCallFile } from "./calls/import";
import { CallFileError } from "./calls/file-rows";
import { operatorAccountId } from "./operator-account";

const TYPE_USAGE = SUPPRESSION_TYPE_NAMES.join("|");

/** The order's exemption list while it is still to be made from --exemptions FILE: an id no list has. */
const LIST_FROM_FILE = 0;

type EvaluationProof = NonNullable<ScrubCertificate["evaluation"]>;
const LIST_SPECS = [...ADMIN_LIST_KINDS, "container:ID"];

/**
 * The database of DATABASE_URL or DATA_DIR, migrated, for a command that works on it directly. When the running
 * server holds DATA_DIR, the error says so and `whenLocked` says what to do instead.
 */
async function openCliDatabase(whenLocked: string): Promise<DbHandle> {
  let handle: DbHandle;
  try {
    handle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: path.resolve(config.DATA_DIR) });
  } catch (e) {
    if (e instanceof DataDirLockedError) throw new Error(`${e.message} ${whenLocked}`);
    throw e;
  }
  try {
    await migrateToLatest(handle.db);
  } catch (e) {
    await handle.close();
    throw e;
  }
  return handle;
}

/** The account `--user` names (a user id, not deleted), or without it the operator's own. */
async function accountOf(db: DbHandle["db"], user: string | undefined): Promise<string> {
  if (!user) return operatorAccountId(db);
  const u = /^[0-9a-f-]{36}$/i.test(user)
    ? await db.selectFrom("users").select("id").where("id", "=", user).where("deleted_at", "is", null).executeTakeFirst()
    : undefined;
  if (!u) throw new Error(`No user ${user}.`);
  return u.id;
}

/**
 * The one way a command reaches the engine: a ScrubService that also does batch work (service.ts,
 * BatchScrubService). SCRUB_SERVICE_URL set → that service over HTTP. Otherwise this process opens the database
 * and runs an in-process service that claims only the work it was given; when an embedded server already holds
 * DATA_DIR, that server's service through its Unix socket.
 */
async function openService(): Promise<{ service: BatchScrubService; close: () => Promise<void> }> {
  const url = config.SCRUB_SERVICE_URL;
  if (url) return { service: createHttpScrubClient({ url, token: config.SCRUB_SERVICE_TOKEN }), close: async () => {} };
  const dataDir = path.resolve(config.DATA_DIR);
  let handle: DbHandle;
  try {
    handle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir });
  } catch (e) {
    if (e instanceof DataDirLockedError && fs.existsSync(socketPath(dataDir))) {
      return { service: createHttpScrubClient({ socketPath: socketPath(dataDir) }), close: async () => {} };
    }
    throw e;
  }
  await migrateToLatest(handle.db);
  // `--calls FILE` records feed the live counters in Redis (decision 196); PGlite's are the server's, built at its start
  const listRedis = redisTargetFromEnv(config);
  if (listRedis) callCountersFor(handle, { redis: listRedis, prefix: config.SCRUB_REDIS_PREFIX, rebuild: false });
  const service = await createInProcessScrubService({
    config,
    handle,
    dataDir,
    redis: listRedis,
    redisPrefix: config.SCRUB_REDIS_PREFIX,
    autoStart: false,
    threads: config.SCRUB_THREADS,
    // this process holds the embedded database alone (its lock): no web request waits on a long load transaction,
    // so a list load is one transaction instead of many short ones (decision 017's reason for them is a server's)
    listLoadChunk: handle.driver.kind === "pglite" ? Infinity : undefined,
  });
  await service.runner.recover();
  return {
    service,
    close: async () => {
      await service.close();
      await closeCallCountersOf(handle).catch(() => undefined);
      await handle.close();
    },
  };
}

const tty = process.stderr.isTTY;
function bar(label: string, done: number, total: number, extra: string): void {
  if (!tty) return;
  const pct = total > 0 ? Math.min(1, done / total) : 0;
  const width = 30;
  const fill = Math.round(pct * width);
  process.stderr.write(`\r${label} [${"#".repeat(fill)}${".".repeat(width - fill)}] ${(pct * 100).toFixed(1)}% ${extra}   `);
}

/**
 * Polls every 50 ms in this process (a query on a local pool), every 250 ms through a server; `wake` (this
 * process's runner) ends a wait early when the work settles.
 */
async function poll<T extends { status: string }>(get: () => Promise<T>, show: (row: T) => void, everyMs: number, wake?: () => Promise<void>): Promise<T> {
  let settled = wake?.();
  for (;;) {
    const row = await get();
    show(row);
    if (row.status === "completed" || row.status === "failed") {
      if (tty) process.stderr.write("\n");
      return row;
    }
    let timer: NodeJS.Timeout | undefined;
    const woke = await Promise.race([
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), everyMs))),
      ...(settled ? [settled.then(() => true)] : []),
    ]);
    clearTimeout(timer);
    if (woke) settled = wake!(); // settled but not done (handed back for a retry): wait for the next time
  }
}

function elapsed(a: unknown, b: unknown): number | null {
  if (!a || !b) return null;
  return (new Date(b as string).getTime() - new Date(a as string).getTime()) / 1000;
}

function num(v: unknown): number {
  return v == null ? 0 : Number(v);
}

/** The job's owner: --user, else the built-in operator account (decision 123). */
async function jobOwner(service: BatchScrubService, given?: string): Promise<string> {
  return given ?? service.operatorId();
}

async function linkOrCopy(from: string, to: string): Promise<void> {
  fs.rmSync(to, { force: true });
  try {
    fs.linkSync(from, to);
  } catch {
    await fs.promises.copyFile(from, to);
  }
}

async function scrubCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      input: { type: "string" },
      type: { type: "string" },
      column: { type: "string" },
      sheet: { type: "string" },
      container: { type: "string" },
      states: { type: "string" },
      out: { type: "string" },
      user: { type: "string" },
      "calling-window": { type: "boolean" },
      exemptions: { type: "string" },
      "exemptions-list": { type: "string" },
      at: { type: "string" },
      purpose: { type: "string" },
      subject: { type: "string" },
      "debt-column": { type: "string" },
      calls: { type: "string" },
      "calls-tz": { type: "string" },
    },
  });
  if (!values.input || !values.type || !values.out) {
    throw new Error(`Usage: npm run scrub -- --input FILE --type ${TYPE_USAGE} [--column NAME] [--sheet NAME] [--container ID] [--states FL,TX] --out DIR`);
  }
  if (!isSuppressionType(values.type)) throw new Error(`--type must be ${suppressionTypeChoices()}`);
  const input = path.resolve(values.input);
  if (!fs.existsSync(input)) throw new Error(`No such file: ${input}`);
  const states = values.states
    ? values.states
        .split(",")
        .map((s) => s.trim().toUpperCase())
        .filter(Boolean)
    : null;
  const exemptionsFile = values.exemptions ? path.resolve(values.exemptions) : null;
  const exemptionsList = values["exemptions-list"] ?? null;
  if (exemptionsFile && exemptionsList) throw new Error("Pass --exemptions FILE or --exemptions-list ID, not both.");
  if (exemptionsList !== null && !/^\d{1,9}$/.test(exemptionsList)) throw new Error("--exemptions-list must be an exemption list id.");
  if (exemptionsFile && !fs.existsSync(exemptionsFile)) throw new Error(`No such file: ${exemptionsFile}`);
  const callsFile = values.calls ? path.resolve(values.calls) : null;
  if (callsFile && !fs.existsSync(callsFile)) throw new Error(`No such file: ${callsFile}`);
  if (values["calls-tz"] && !callsFile) throw new Error("--calls-tz applies with --calls FILE only.");
  if (values.purpose !== undefined && !(CALL_PURPOSES as readonly string[]).includes(values.purpose)) {
    throw new Error(`--purpose must be ${CALL_PURPOSES.join(" or ")}.`);
  }
  // The order, parsed once (order.ts), before anything opens: a wrong --at never opens a database. Two of its facts come
  // from the service once it is open: the owner's id without --user (the operator account, decision 123) and the id of
  // the list made from --exemptions FILE. Until then the order holds stand-ins (the operator's address; list id 0,
  // which no list has: ids start at 1), replaced before it is submitted.
  const parsed = parseScrubOrder(
    {
      userId: values.user ?? OPERATOR_EMAIL,
      inputPath: input,
      fileName: path.basename(input),
      suppressionType: values.type,
      columnName: values.column ?? null,
      sheet: values.sheet ?? null,
      containerId: values.container ?? null,
      states: states ?? [],
      callingWindow: values["calling-window"] === true,
      exemptionListId: exemptionsList ?? (exemptionsFile ? LIST_FROM_FILE : null),
      evaluatedAt: values.at ?? null,
      purpose: values.purpose as CapPurpose | undefined,
      subject: values.subject ?? null,
      debtColumn: values["debt-column"] ?? null,
    },
    ORDER_WORDS.cli,
  );
  if (!parsed.ok) throw new Error(parsed.message);
  const started = Date.now();
  const { service, close } = await openService();
  try {
    const userId = await jobOwner(service, values.user);
    // --exemptions FILE: loaded into a new list of the owner's named after the file (all rows or none: every bad line
    // is printed and nothing runs); --exemptions-list ID as given
    const exemptionListId = exemptionsFile
      ? await service.exemptionListFromFile(userId, path.basename(exemptionsFile), exemptionsFile)
      : parsed.order.exemptionListId;
    // --calls FILE: the file's calls added to the owner's history before the scrub counts them (decision 191), the
    // way `npm run calls -- import` adds them (every row or none: the bad lines are printed and nothing runs)
    const callsImported = callsFile ? await service.importCalls(userId, callsFile, values["calls-tz"] ?? null) : null;
    // the intake checks the container and the exemption list are the owner's (createScrubJob)
    const jobId = await service.submitScrub({ ...parsed.order, userId, exemptionListId });
    const job = await poll(
      () => service.scrubJob(jobId),
      (row) => bar("scrub", num(row.bytes_read), num(row.input_bytes), `${num(row.rows_done).toLocaleString("en-US")} rows`),
      service.pollMs,
      service.whenSettled ? () => service.whenSettled!(jobId) : undefined,
    );
    const out = path.resolve(values.out);
    fs.mkdirSync(out, { recursive: true });
    const files: Record<string, string> = {};
    if (job.status === "completed") {
      for (const f of job.files as { kind: string; path: string }[]) {
        const dest = path.join(out, `${f.kind}.csv`);
        await linkOrCopy(f.path, dest);
        files[f.kind] = dest;
      }
      if (typeof job.certificate === "string") {
        files.certificate = path.join(out, "certificate.json");
        fs.writeFileSync(files.certificate, job.certificate);
      }
    }
    const seconds = (Date.now() - started) / 1000;
    // The instant's standing as the certificate states it (decision 174): the CLI may evaluate a past instant
    // (an audit, a test) or one past the lists' validity (planning); the summary says so.
    const document = typeof job.certificate === "string" ? (JSON.parse(job.certificate) as { certificate?: { evaluation?: EvaluationProof } }) : null;
    const evaluation = document?.certificate?.evaluation ?? null;
    const summary = {
      jobId,
      status: job.status,
      error: job.error ?? null,
      rows: num(job.total_rows),
      good: num(job.good_count),
      bad: num(job.bad_count),
      invalid: num(job.invalid_count),
      reasons: typeof job.reason_counts === "string" ? JSON.parse(job.reason_counts) : job.reason_counts,
      input: { format: job.input_format ?? null, encoding: job.input_encoding ?? null, delimiter: job.input_delimiter ?? null, sheet: job.input_sheet ?? null },
      /** With --calling-window: the instant, CALLING_RULES_VERSION, counts by answer and by time zone. */
      calling: typeof job.calling_summary === "string" ? JSON.parse(job.calling_summary) : (job.calling_summary ?? null),
      /** With --calls FILE: the file's rows, the records added and the repeats ignored (decision 191). */
      callsImported: callsImported ? { file: callsFile, ...callsImported } : null,
      /** With exemptions: the list's version and SHA-256, the instant, and the good rows each basis let through. */
      exemptions: typeof job.exemption_summary === "string" ? JSON.parse(job.exemption_summary) : (job.exemption_summary ?? null),
      /** With --at: true when the instant lay before the run (the answers are not valid for calls now). */
      replay: evaluation?.replay ?? false,
      /** With --at: true when the instant lies after the checked lists' "valid for calls until". */
      beyondListValidity: evaluation?.beyondListValidity ?? false,
      /** "evaluated at a past instant: not valid for calls now", "beyond the lists' validity". */
      notes: evaluation?.notes ?? [],
      files,
      seconds,
      rowsPerSecond: seconds > 0 ? Math.round(num(job.total_rows) / seconds) : null,
      /** claim → completed, from the job row (without this process's start-up). */
      jobSeconds: elapsed(job.started_at, job.finished_at),
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      /** CPU time of this process, every thread (user + system): steadier than wall time on a shared machine. */
      cpuSeconds: (() => {
        const u = process.resourceUsage();
        return (u.userCPUTime + u.systemCPUTime) / 1e6;
      })(),
      timings: service.jobTimings(jobId),
      via: service.kind === "in-process" ? "in-process" : "running server",
    };
    process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
    return job.status === "completed" ? 0 : 1;
  } finally {
    await close();
  }
}

async function listId(service: BatchScrubService, spec: string): Promise<number> {
  if (spec.startsWith("container:")) return Number(spec.slice("container:".length));
  if (!isAdminListKind(spec)) throw new Error(`--list must be ${orList(LIST_SPECS)}`);
  return service.adminListId(spec);
}

/**
 * `npm run lists -- emergency add|list|remove` (decision 181): emergency no-call periods, in the database itself
 * (PostgreSQL with DATABASE_URL, else the embedded one in DATA_DIR; a running embedded server holds that one:
 * use its admin screen then).
 */
async function emergencyCommand(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  const usage =
    "Usage: npm run lists -- emergency add --states LA[,NY] [--area-codes 504,985] --from YYYY-MM-DD --to YYYY-MM-DD --source URL [--authority TEXT] | emergency list [--all] | emergency remove --id N";
  if (cmd !== "add" && cmd !== "list" && cmd !== "remove") throw new Error(usage);
  const { values } = parseArgs({
    args: rest,
    options: {
      states: { type: "string" },
      "area-codes": { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
      source: { type: "string" },
      authority: { type: "string" },
      id: { type: "string" },
      all: { type: "boolean" },
    },
  });
  // checked before the database is opened: a wrong period never reaches it
  let parsed: ReturnType<typeof parseEmergencyPeriod> | null = null;
  if (cmd === "add") {
    parsed = parseEmergencyPeriod({
      states: values.states ?? "",
      areaCodes: values["area-codes"] ?? null,
      from: values.from ?? "",
      to: values.to ?? "",
      authority: values.authority ?? "",
      source: values.source ?? "",
    });
    if (!parsed.ok) {
      const flag: Record<string, string> = {
        states: "--states",
        areaCodes: "--area-codes",
        from: "--from",
        to: "--to",
        source: "--source",
        authority: "--authority",
      };
      throw new Error(`The period was not added:\n${parsed.errors.map((e) => `  ${flag[e.field]}: ${e.message}`).join("\n")}`);
    }
  }
  if (cmd === "remove" && !/^\d+$/.test(values.id ?? ""))
    throw new Error("emergency remove needs --id N (the period's number, see `npm run lists -- emergency list`).");
  const handle = await openCliDatabase(
    'Emergency periods are kept in the database: stop the server, or use its admin screen (DNC Management, "Emergency no-call periods").',
  );
  try {
    const show = (p: StoredEmergencyPeriod) =>
      `${String(p.id).padStart(4)}  ${p.firstDay} to ${p.lastDay}  ${p.states.join(",")}${p.areaCodes ? ` area codes ${p.areaCodes.join(",")}` : ""}  ${
        p.authority ? `${p.authority}  ` : ""
      }${p.sourceUrl}${p.removedAt ? `  (removed ${p.removedAt.toISOString()})` : ""}`;
    if (cmd === "add" && parsed?.ok) {
      const p = await insertEmergencyPeriod(handle.db, parsed.value, null);
      process.stdout.write(`Added emergency period ${p.id}:\n${show(p)}\n`);
      return 0;
    }
    if (cmd === "list") {
      const all = await listEmergencyPeriods(handle.db, { includeRemoved: values.all === true });
      process.stdout.write(all.length ? `${all.map(show).join("\n")}\n` : "No emergency periods.\n");
      return 0;
    }
    const id = Number(values.id);
    if (!(await removeEmergencyPeriod(handle.db, id, null))) throw new Error(`No emergency period ${id} in force (see \`npm run lists -- emergency list\`).`);
    process.stdout.write(`Removed emergency period ${id} (kept for the certificates that name it).\n`);
    return 0;
  } finally {
    await handle.close();
  }
}

/**
 * `npm run calls -- import --input FILE [--user ID] [--tz ZONE]` (decision 185): a dialer's call history into the
 * database itself, all rows or none (PostgreSQL with DATABASE_URL, else the embedded one in DATA_DIR; a running
 * embedded server holds that one: use POST /api/v1/calls then). Without --user the operator account owns the records.
 */
async function callsCommand(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  const usage = "Usage: npm run calls -- import --input FILE [--user ID] [--tz ZONE]";
  if (cmd !== "import") throw new Error(usage);
  const { values } = parseArgs({ args: rest, options: { input: { type: "string" }, user: { type: "string" }, tz: { type: "string" } } });
  if (!values.input) throw new Error(`--input FILE is required. ${usage}`);
  if (!fs.existsSync(values.input)) throw new Error(`No such file: ${values.input}`);
  const handle = await openCliDatabase("Call records are kept in the database: stop the server, or send them with POST /api/v1/calls.");
  try {
    const userId = await accountOf(handle.db, values.user);
    // with the lists in Redis, the imported records feed the live counters there (decision 196); with PGlite the
    // server (stopped: it holds the directory otherwise) builds its counters from the database when it starts
    const redis = redisTargetFromEnv(config);
    if (redis) callCountersFor(handle, { redis, prefix: config.SCRUB_REDIS_PREFIX, rebuild: false });
    let r;
    try {
      r = await importCallFile(handle.db, { path: values.input, userId, zone: values.tz ?? null });
    } catch (e) {
      if (e instanceof CallFileError) throw new Error(e.message);
      throw e;
    }
    if ("errors" in r) {
      process.stderr.write(`${callImportProblems(values.input, r.errors, r.total)}\n`);
      return 2;
    }
    process.stdout.write(
      `${JSON.stringify({
        input: values.input,
        format: r.format,
        timeZone: values.tz ?? null,
        userId,
        rows: r.rows,
        recorded: r.recorded,
        ignored: r.ignored,
      })}\n`,
    );
    return 0;
  } finally {
    await closeCallCountersOf(handle).catch(() => undefined);
    await handle.close();
  }
}

async function listsCommand(argv: string[]): Promise<number> {
  if (argv[0] === "emergency") return emergencyCommand(argv.slice(1));
  const [cmd, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { list: { type: "string", multiple: true }, input: { type: "string" }, user: { type: "string" }, "registry-date": { type: "string" } },
  });
  // Checked before anything is opened: a wrong date never starts a load.
  const stated = parseOptionalRegistryDate(values["registry-date"]);
  if (!stated.ok) throw new Error(stated.message);
  if (stated.date && !takesRegistryDate(values.list?.[0] ?? "")) {
    throw new Error(
      `--registry-date applies to --list dnc, the state lists and Canada's National DNCL (${STATE_LIST_KINDS.join(
        ", ",
      )}) only: the date of the registry download.`,
    );
  }
  const { service, close } = await openService();
  const started = Date.now();
  try {
    if (cmd === "status") {
      const s = await service.listStoreStatus();
      process.stdout.write(JSON.stringify(s, null, 2) + "\n");
      return 0;
    }
    if (cmd === "rebuild") {
      const ids = values.list ? await Promise.all(values.list.map((l) => listId(service, l))) : undefined;
      const s = await service.rebuildLists(ids);
      process.stdout.write(JSON.stringify({ rebuilt: s, seconds: (Date.now() - started) / 1000 }, null, 2) + "\n");
      return 0;
    }
    if (cmd !== "load" && cmd !== "remove" && cmd !== "replace" && cmd !== "apply-changes") {
      throw new Error(`Usage: npm run lists -- load|remove|replace|apply-changes --list ${LIST_SPECS.join("|")} --input FILE | rebuild | status`);
    }
    if (!values.list?.[0] || !values.input) throw new Error("--list and --input are required");
    const input = path.resolve(values.input);
    if (!fs.existsSync(input)) throw new Error(`No such file: ${input}`);
    const id = await listId(service, values.list[0]);
    const mode = cmd === "load" ? "add" : cmd === "apply-changes" ? "changes" : cmd;
    const loadId = await service.submitListLoad({ listId: id, mode, userId: values.user ?? null, inputPath: input, registryDate: stated.date });
    const load = await poll(
      () => service.listLoad(loadId),
      (row) => bar(cmd, num(row.bytes_read), num(row.bytes_total), ""),
      service.pollMs,
      service.whenSettled ? () => service.whenSettled!(loadId) : undefined,
    );
    // the Bloom filter and cache files of the new version are written after the commit; they are part of the load
    await service.idle();
    const seconds = (Date.now() - started) / 1000;
    const valid = num(load.added) + num(load.already_present) + num(load.removed);
    process.stdout.write(
      JSON.stringify(
        {
          loadId,
          listId: id,
          mode,
          status: load.status,
          error: load.error ?? null,
          added: num(load.added),
          alreadyPresent: num(load.already_present),
          removed: num(load.removed),
          notPresent: num(load.not_present),
          invalid: num(load.invalid),
          format: load.source_format ?? null,
          registryDate: load.registry_date ? new Date(load.registry_date as string).toISOString() : null,
          encoding: load.input_encoding ?? null,
          delimiter: load.input_delimiter ?? null,
          seconds,
          numbersPerSecond: seconds > 0 ? Math.round((valid + num(load.invalid)) / seconds) : null,
          loadSeconds: elapsed(load.started_at, load.finished_at),
          maxRssBytes: process.resourceUsage().maxRSS * 1024,
        },
        null,
        2,
      ) + "\n",
    );
    return load.status === "completed" ? 0 : 1;
  } finally {
    await close();
  }
}

/**
 * Needs no database: anyone holding the files can run it, with the service's published keys (`--keys FILE|URL`, or
 * CERTIFICATE_KEYS_URL / APP_URL from the configuration). Without them it refuses to verify (exit 2): a
 * certificate's own embedded key proves nothing (docs/decisions/153).
 */
async function verifyCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      certificate: { type: "string" },
      input: { type: "string" },
      results: { type: "string" },
      keys: { type: "string" },
      ledger: { type: "string" },
      dossier: { type: "string" },
    },
  });
  if (!values.certificate && !values.ledger && !values.dossier) {
    throw new Error(
      "Usage: npm run verify -- --certificate cert.json [--input original.csv] [--results DIR] [--keys keys.json|URL]\n" +
        "       npm run verify -- --ledger ledger.json [--keys keys.json|URL]\n" +
        "       npm run verify -- --dossier dossier.json [--keys keys.json|URL]",
    );
  }
  const source = keySource(values.keys);
  if (!source) {
    process.stderr.write(
      `A ${values.ledger ? "ledger" : values.dossier ? "dossier" : "certificate"} verifies only against the keys this service publishes. Pass --keys with the JSON of /.well-known/scrub-certificate-key ` +
        "(a file or the URL), or set APP_URL (or CERTIFICATE_KEYS_URL) to the service's address.\n",
    );
    return 2;
  }
  let keys: Map<string, string>;
  try {
    keys = keysFromJson(await readKeys(source));
    if (!keys.size) throw new Error("it lists no keys");
  } catch (e) {
    process.stderr.write(`The service's keys could not be read from ${source}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  if (values.ledger) return verifyLedgerFile(path.resolve(values.ledger), keys);
  if (values.dossier) return verifyDossierFile(path.resolve(values.dossier), keys);
  const certificateText = fs.readFileSync(path.resolve(values.certificate!), "utf8");
  const v = await verifyWithFiles({
    certificateText,
    inputPath: values.input ? path.resolve(values.input) : undefined,
    resultsDir: values.results ? path.resolve(values.results) : undefined,
    publishedKeys: keys,
  });
  const c = v.certificate?.certificate;
  if (c) process.stdout.write(`Certificate for scrub ${c.jobId} of ${c.input.fileName}, issued ${c.issuedAt} to ${c.owner.name} (${c.owner.company})\n`);
  if (c?.evaluation) {
    const e = c.evaluation;
    process.stdout.write(
      `Evaluated at ${e.at}: replay ${e.replay}, beyond the lists' validity ${e.beyondListValidity}${e.notes.length ? ` (${e.notes.join("; ")})` : ""}\n`,
    );
  }
  if (c?.callingWindow?.emergencyPeriods?.length) {
    const periods = c.callingWindow.emergencyPeriods.map(
      (p) =>
        `${p.id} (${p.states.join(",")}${p.areaCodes ? ` ${p.areaCodes.join(",")}` : ""}, ${p.firstDay} to ${p.lastDay}, ${p.heldRows} rows held; ${
          p.sourceUrl
        })`,
    );
    process.stdout.write(`Emergency no-call periods applied: ${periods.join("; ")}\n`);
  }
  if (c?.staleLists?.length) {
    process.stdout.write(
      `Ran with lists past their freshness rule: ${c.staleLists
        .map((l) => `${l.kind} (release ${l.registryDate.slice(0, 10)}, ${l.ageDays} days old; rule ${l.ruleDays} days)`)
        .join(", ")}\n`,
    );
  }
  for (const check of v.checks) process.stdout.write(`${check.ok ? "OK  " : "FAIL"} ${check.subject}: ${check.detail}\n`);
  const failed = v.checks.filter((x) => !x.ok).map((x) => x.subject);
  process.stdout.write(v.ok ? "Verified: everything checked matches.\n" : `Does not match: ${failed.join(", ")}.\n`);
  return v.ok ? 0 : 1;
}

/**
 * A decision ledger export (GET /api/v1/ledger, decision 197), offline: every day head's signature under a published
 * key, every entry's hash and link, no gap or reversal, each signed head found in the chain. Exit 0 verified, 1 not.
 */
function verifyLedgerFile(file: string, keys: ReadonlyMap<string, string>): number {
  const v = verifyLedgerText(fs.readFileSync(file, "utf8"), keys);
  const d = v.doc;
  if (d)
    process.stdout.write(
      `Decision ledger ${d.ledger}, ${d.from} to ${d.to} (exported ${d.exportedAt}): ${d.entries.length} entr${d.entries.length === 1 ? "y" : "ies"}, ` +
        `${d.dayHeads.length} signed day head(s)${d.anchor ? `, continuing from the head of ${d.anchor.day} (seq ${d.anchor.seq})` : ""}\n`,
    );
  for (const check of v.checks) process.stdout.write(`${check.ok ? "OK  " : "FAIL"} ${check.subject}: ${check.detail}\n`);
  const failed = [...new Set(v.checks.filter((x) => !x.ok).map((x) => x.subject))];
  process.stdout.write(v.ok ? "Verified: no entry was changed, removed or reordered since its day was signed.\n" : `Does not match: ${failed.join(", ")}.\n`);
  return v.ok ? 0 : 1;
}

/** A number's dossier (GET /api/v1/numbers/{number}/dossier or npm run dossier), offline. Exit 0 verified, 1 not. */
function verifyDossierFile(file: string, keys: ReadonlyMap<string, string>): number {
  const v = verifyDossierText(fs.readFileSync(file, "utf8"), keys);
  const d = v.doc;
  if (d)
    process.stdout.write(
      `Dossier of ${d.number}, ${d.from} to ${d.to} (made ${d.generatedAt}): ${d.decisions.length} decision(s), ${d.batches.length} scrub(s) and list version(s), ` +
        `${d.calls?.length ?? 0} call(s), ${d.optOuts?.length ?? 0} opt-out(s); proof of ${d.proof.items.length} entr${d.proof.items.length === 1 ? "y" : "ies"} and ${d.proof.dayHeads.length} signed day head(s)\n`,
    );
  for (const check of v.checks) process.stdout.write(`${check.ok ? "OK  " : "FAIL"} ${check.subject}: ${check.detail}\n`);
  const failed = [...new Set(v.checks.filter((x) => !x.ok).map((x) => x.subject))];
  process.stdout.write(
    v.ok ? "Verified: the dossier's decisions are the ledger's, unchanged since their days were signed.\n" : `Does not match: ${failed.join(", ")}.\n`,
  );
  return v.ok ? 0 : 1;
}

/**
 * npm run dossier -- --number N [--user ID] [--from DATE] [--to DATE] --out FILE.json (FILE.pdf: the PDF for people, the JSON attached): a number's dossier from the
 * database (as GET /api/v1/numbers/{number}/dossier, without the lists holding it now: the CLI reads the database only).
 */
async function dossierCommand(argv: string[]): Promise<number> {
  const usage = "Usage: npm run dossier -- --number N [--user ID] [--from YYYY-MM-DD] [--to YYYY-MM-DD] --out FILE.json|FILE.pdf";
  const { values } = parseArgs({
    args: argv,
    options: { number: { type: "string" }, user: { type: "string" }, from: { type: "string" }, to: { type: "string" }, out: { type: "string" } },
  });
  if (!values.number || !values.out) throw new Error(usage);
  const p = parsePhone(values.number);
  if (!p.ok) throw new Error(`--number: ${p.message}`);
  const day = (v: string | undefined, name: string, fallback: string) => {
    const d = v ?? fallback;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d) || new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) !== d)
      throw new Error(`--${name} must be a date YYYY-MM-DD (UTC).`);
    return d;
  };
  const to = day(values.to, "to", new Date().toISOString().slice(0, 10));
  const from = day(values.from, "from", new Date(Date.parse(`${to}T00:00:00Z`) - 30 * 86_400_000).toISOString().slice(0, 10));
  if (from > to) throw new Error("--from must be on or before --to.");
  const handle = await openCliDatabase("Stop the server, or ask GET /api/v1/numbers/{number}/dossier.");
  try {
    const userId = await accountOf(handle.db, values.user);
    const dossier = await buildDossier(handle.db, userId, p.number, { from, to });
    const text = JSON.stringify(dossier, null, 2) + "\n";
    // PDF for people (the JSON attached inside it), JSON otherwise
    fs.writeFileSync(path.resolve(values.out), values.out.toLowerCase().endsWith(".pdf") ? await dossierPdf(dossier, text) : text);
    process.stdout.write(
      `${JSON.stringify({ out: path.resolve(values.out), number: dossier.number, from, to, decisions: dossier.decisions.length, proofEntries: dossier.proof.items.length })}\n`,
    );
    return 0;
  } finally {
    await handle.close();
  }
}

/** Where the published keys come from: --keys, else CERTIFICATE_KEYS_URL, else APP_URL's well-known address. */
function keySource(flag: string | undefined): string | null {
  if (flag) return flag;
  if (config.CERTIFICATE_KEYS_URL) return config.CERTIFICATE_KEYS_URL;
  if (config.APP_URL) return new URL("/.well-known/scrub-certificate-key", config.APP_URL).toString();
  return null;
}

async function readKeys(source: string): Promise<string> {
  if (!/^https?:\/\//.test(source)) return fs.readFileSync(path.resolve(source), "utf8");
  const res = await fetch(source, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.text();
}

function printKeys(keys: PublishedKey[]): void {
  for (const k of keys) {
    process.stdout.write(
      `${k.keyId}  ${k.status.padEnd(7)}  Ed25519 public key ${k.publicKey}  (created ${k.createdAt}${k.retiredAt ? `, retired ${k.retiredAt}` : ""})\n`,
    );
  }
}

async function keysCommand(argv: string[]): Promise<number> {
  const [cmd] = argv;
  if (cmd && cmd !== "rotate") throw new Error("Usage: npm run certificate-key [-- rotate]");
  const { service, close } = await openService();
  try {
    const { keys, rotated } = await service.signingKeys({ rotate: cmd === "rotate" });
    if (rotated) {
      process.stdout.write(`New signing key ${rotated.keyId}; retired ${rotated.retired.length ? rotated.retired.join(", ") : "none"} (still published).\n`);
      if (config.CERT_SIGNING_KEY) process.stdout.write("Note: CERT_SIGNING_KEY is set and still signs; unset it to use the new key.\n");
    }
    printKeys(keys);
    return 0;
  } finally {
    await close();
  }
}

const HELP = `Batch work from the command line.
  npm run scrub -- --input FILE --type ${TYPE_USAGE} --out DIR [--column NAME] [--sheet NAME]
                   [--container ID] [--states FL,TX] [--calling-window] [--exemptions FILE | --exemptions-list ID]
                   [--at ISO-8601] [--user ID] [--purpose telemarketing|debt-collection] [--subject S]
                   [--debt-column NAME] [--calls FILE [--calls-tz ZONE]]
      Writes good.csv, bad.csv, invalid.csv and certificate.json to DIR; a JSON summary on stdout. Each file keeps
      the input's columns, then phone_e164 (+1 and ten digits; empty for invalid rows), then bad and invalid: reason.
      --calling-window: good.csv gains time_zone, callable_now, next_call_at, next_call_local (the same instant on the
      number's clock, with its offset) and calling_note (why not, with the
      rule's citation; federal, state and CRTC calling hours, rules ${CALLING_RULES_VERSION}), evaluated at --at (an
      ISO-8601 instant with its offset; default: the scrub's start). A number without a time zone gets the
      strictest reading across every US time zone.
      With --calling-window the owner's call history is counted too (decision 191): good.csv gains calls_24h and
      calls_7d after calling_note, and a number over a frequency cap of --purpose (telemarketing, the default: the
      states' caps per --subject, default "default"; debt-collection: Regulation F and Massachusetts per debt, each
      row's debt id read from --debt-column NAME) is not callable now, its next call when the cap lifts, its note
      naming the cap. --calls FILE adds a call file to the owner's history first (as npm run calls -- import;
      --calls-tz for instants without an offset).
      --exemptions FILE: the customer's exemption records (phone,basis,date; basis purchase, inquiry or consent;
      ISO dates), loaded into a new exemption list first; --exemptions-list ID: a list already loaded. A number on
      the DNC list is good when a record applies at --at: a purchase within 18 months before it, an inquiry
      within 3, consent dated before it. Litigation and containers are never exempted. good.csv gains an exemption column,
      and bad.csv one after reason saying why a listed number's record did not apply.
      --user ID: the user who owns the job. Without it the job is owned by the built-in operator account
      (${OPERATOR_EMAIL}, created on first use; nobody can sign in as it).
  npm run lists -- load|remove|replace|apply-changes --list ${LIST_SPECS.join("|")} --input FILE [--user ID]
                  [--registry-date YYYY-MM-DD]  (dnc, dnc-XX: the day of the download; default: the list keeps its release date)
  npm run lists -- rebuild [--list …]      npm run lists -- status
  npm run lists -- emergency add --states LA [--area-codes 504,985] --from YYYY-MM-DD --to YYYY-MM-DD --source URL
                  [--authority TEXT]       npm run lists -- emergency list [--all]     npm run lists -- emergency remove --id N
      Emergency no-call periods: while one lasts (the number's local days), its numbers are not callable in the
      calling-window columns, the lookup and the certificate.
  npm run calls -- import --input FILE [--user ID] [--tz ZONE]
      A dialer's call history (columns by name: number|phone|phone_number, at|call_date, subject|campaign_id, channel,
      outcome|status, debt_id, call_id|uniqueid), all rows or none; instants need their offset, or --tz for local times.
      A VICIdial vicidial_log export is recognised by its header and needs --tz (the server's zone); kept five years.
  npm run verify -- --certificate cert.json [--input original.csv] [--results DIR] [--keys keys.json|URL]
  npm run verify -- --ledger ledger.json [--keys keys.json|URL]
      A decision ledger export (GET /api/v1/ledger): every entry's hash and link and every signed day head, offline.
  npm run verify -- --dossier dossier.json [--keys keys.json|URL]
  npm run dossier -- --number N [--user ID] [--from YYYY-MM-DD] [--to YYYY-MM-DD] --out FILE.json
      One number's dossier (decisions, scrubs, calls, exemption records, opt-outs and the ledger proof), JSON.
  npm run certificate-key [-- rotate]
Where it runs: SCRUB_SERVICE_URL → that service; DATABASE_URL → this process; otherwise the embedded
database in DATA_DIR (default ./data), through the running server when one holds it.
`;

/** The CLI's configuration: parsed once, first thing in main (an invalid value stops it there, naming the variable). */
let config: EngineConfig;

async function main(): Promise<number> {
  config = useEngineConfig({ ...parseEngineConfig(process.env), DPT_SERVICE_NAME: "cli" });
  // stdout carries the JSON summary (scripts and bench:scrub parse it): the CLI's log lines go to stderr.
  setLogger(createLogger({ service: "cli", destination: pino.destination({ dest: 2, sync: true }) }));
  const [group, ...argv] = process.argv.slice(2);
  if (!group || group === "--help" || group === "-h" || argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(HELP);
    return group ? 0 : 2;
  }
  if (group === "scrub") return scrubCommand(argv);
  if (group === "lists") return listsCommand(argv);
  if (group === "verify") return verifyCommand(argv);
  if (group === "calls") return callsCommand(argv);
  if (group === "keys") return keysCommand(argv);
  if (group === "dossier") return dossierCommand(argv);
  throw new Error("Usage: cli.ts scrub … | cli.ts lists … | cli.ts calls … | cli.ts verify … | cli.ts keys [rotate] | cli.ts dossier …");
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  },
);
