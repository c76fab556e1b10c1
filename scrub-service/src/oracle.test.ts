/**
 * The oracle: random lists and a random 200,000-row input full of formatting variants, scrubbed by the
 * engine (small batches, so quoted fields and rows cross batch boundaries), compared byte for byte with a
 * plain reference implementation written independently (string state machine, regexes, JS Sets).
 * Runs against the embedded store and, when REDIS_URL is set (always in CI), against Redis.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "db/client";
import { createTestDb } from "../../tests/setup/db";
import type { InProcessScrubService } from "./in-process";
import { createListLoad, createScrubJob } from "./service";
import { adminListIds, cleanupService, createContainer, createUser, startService, storeKinds, tmpDir } from "./test/helpers";
import { AREA_CODE_STATES } from "./numbers/area-codes";
import { seededRandom } from "./test/random";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { exemptionWindowsOf, LIST_TYPES, STATE_LIST_KINDS } from "./list-types";
import { createExemptionList, loadExemptions } from "./exemptions";
import { readExemptionRows } from "./exemption-files/file";
import { callingClassOf, callingClassTable } from "./calling/exchanges";
import { evaluateClass } from "./calling/note";
import { recordCalls } from "./calls/store";
import { checkCallRecords } from "./calls/validate";

const ROWS = 200_000;

// ---------- reference implementation (deliberately simple) ----------

interface RefField {
  raw: string;
  value: string;
}

function refParse(text: string, delim: string): RefField[][] {
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const rows: RefField[][] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const fields: RefField[] = [];
    for (;;) {
      const start = i;
      let value = "";
      if (text[i] === '"') {
        let j = i + 1;
        for (;;) {
          const k = text.indexOf('"', j);
          if (k < 0) {
            value += text.slice(j);
            i = n;
            break;
          }
          if (text[k + 1] === '"') {
            value += text.slice(j, k) + '"';
            j = k + 2;
            continue;
          }
          value += text.slice(j, k);
          i = k + 1;
          break;
        }
        while (i < n && text[i] !== delim && text[i] !== "\n") value += text[i++];
        let raw = text.slice(start, i);
        if ((i >= n || text[i] === "\n") && raw.endsWith("\r")) {
          raw = raw.slice(0, -1);
          value = value.endsWith("\r") ? value.slice(0, -1) : value;
        }
        fields.push({ raw, value });
      } else {
        while (i < n && text[i] !== delim && text[i] !== "\n") i++;
        let raw = text.slice(start, i);
        if ((i >= n || text[i] === "\n") && raw.endsWith("\r")) raw = raw.slice(0, -1);
        fields.push({ raw, value: raw });
      }
      if (i < n && text[i] === delim) {
        i++;
        continue;
      }
      i++; // newline (or past the end)
      break;
    }
    if (fields.length === 1 && fields[0].raw === "") continue; // empty line
    rows.push(fields);
  }
  return rows;
}

/**
 * The rules of docs/decisions/100, modelled with regexes and a Set of the area codes in service (from
 * libphonenumber-js's own parser, not from the table the engine uses). The generator below writes only
 * ASCII formats, Unicode separators, tel:, Excel markers and extensions; the corpus test covers the rest.
 */
function refNormalize(v: string): number | string {
  let t = v.replace(/[\s\u00a0\u2009\u202f\u2013\u2014\u2212]+/g, " ").trim();
  if (t === "") return "empty: no phone number in this cell";
  if (/^[+-]?\d+(\.\d*)?[eE][+-]?\d+$/.test(t)) return EXCEL_TEXT;
  t = t
    .replace(/^'/, "")
    .replace(/^="(.*)"$/, "$1")
    .replace(/^tel:/i, "");
  t = t.replace(/(\d[ .\-()/]*)( ?(ext\.?|x|#) ?\d*)$/i, "$1");
  const parts = t.split(/\D+/).filter(Boolean);
  if (parts.length === 2 && parts.every((p) => p.length === 10 || (p.length === 11 && p[0] === "1"))) {
    return "two phone numbers in one cell: put one number per row";
  }
  const plus = t.startsWith("+");
  const s = plus ? t.slice(1) : t;
  if (/[^0-9 .\-()/]/.test(s)) return "not a phone number";
  const d = s.replace(/[^0-9]/g, "");
  if (d.length === 0) return "not a phone number";
  if (plus && d[0] !== "1") return NOT_NANP_TEXT;
  const ten = d.length === 11 && d[0] === "1" ? d.slice(1) : d.length === 10 && !plus ? d : null;
  if (!ten) return `${d.length} digits: a US phone number has 10 digits (11 starting with 1)`;
  const [npa, nxx, line] = [ten.slice(0, 3), ten.slice(3, 6), ten.slice(6)];
  if (npa[0] < "2") return `area code ${npa} is not a phone area code (area codes never start with 0 or 1)`;
  if (npa.endsWith("11")) return `area code ${npa} is not a phone area code (N11 codes like 411 and 911 are service numbers)`;
  if (!inService(npa)) return `area code ${npa} is not in service (unassigned or reserved)`;
  if (nxx[0] < "2") return `exchange ${nxx} is not a phone exchange (exchanges never start with 0 or 1)`;
  if (nxx.endsWith("11")) return `exchange ${nxx} is a service code (N11) and not a phone exchange`;
  if (nxx === "555" && line.startsWith("01")) return "555-0100 to 555-0199 numbers are reserved for films and fiction";
  return Number(ten);
}
const EXCEL_TEXT = "Excel scientific notation (like 1.23457E+9): digits were lost - format the column as text and export again";
const NOT_NANP_TEXT = "not a North American number (only +1 numbers: US and Canada and the Caribbean)";
const inServiceCache = new Map<string, boolean>();
/** The area codes the generator uses are US geographic codes: in service when the library says so for a plain number. */
function inService(npa: string): boolean {
  let ok = inServiceCache.get(npa);
  if (ok === undefined) inServiceCache.set(npa, (ok = parsePhoneNumberFromString(`+1${npa}2342345`)?.isValid() === true));
  return ok;
}

function refCell(f: RefField): string {
  const v = f.value;
  const c = v[0];
  // OWASP's formula starts plus NUL (decision 154); after a sign only a plain number (digits, one point) stays as it is
  const dangerous = c === "=" || c === "@" || c === "\t" || c === "\r" || c === "\n" || c === "\0" || c === "+" || c === "-";
  const numberLike = (c === "+" || c === "-") && /^[+-](?=\.?\d)\d*\.?\d*$/.test(v);
  if (!dangerous || numberLike) return f.raw;
  return `"'${v.replace(/"/g, '""')}"`;
}

interface RefLists {
  container: Set<number>;
  litigation: Set<number>;
  dnc: Set<number>;
  /** The state DNC lists by kind, checked after the federal list in registry order. */
  stateLists: Map<string, Set<number>>;
  states: Set<string> | null;
  /** A customer's exemption records and the instant they are judged at (decision 161). */
  exemptions?: { records: Map<number, RefExemption>; at: number };
}

interface RefExemption {
  basis: "purchase" | "inquiry" | "consent";
  date: string;
}

/**
 * A list's windows (the registry's months: federal 18 and 3, a state's own), the date arithmetic written
 * independently of the engine: the record's date has begun, and a purchase or an inquiry is less than its months
 * old (the same day of the month later, or that month's last day when it has no such day). Returns the end day
 * (YYYY-MM-DD), null for consent (no end), undefined when the record does not apply.
 */
function refExemptionEnd(e: RefExemption, at: number, w: { purchaseMonths: number; inquiryMonths: number }): string | null | undefined {
  const [y, m, d] = e.date.split("-").map(Number);
  if (Date.UTC(y, m - 1, d) > at) return undefined;
  if (e.basis === "consent") return null;
  const months = e.basis === "purchase" ? w.purchaseMonths : w.inquiryMonths;
  let end = new Date(Date.UTC(y, m - 1 + months, d));
  if (end.getUTCDate() !== d) end = new Date(Date.UTC(y, m + months, 0)); // rolled over: the last day of the month
  if (at >= end.getTime()) return undefined;
  return end.toISOString().slice(0, 10);
}

/** The end day (YYYY-MM-DD) of a purchase or an inquiry under `months`, written independently (see refExemptionEnd). */
function refEndDate(e: RefExemption, months: number): string {
  const [y, m, d] = e.date.split("-").map(Number);
  let end = new Date(Date.UTC(y, m - 1 + months, d));
  if (end.getUTCDate() !== d) end = new Date(Date.UTC(y, m + months, 0));
  return end.toISOString().slice(0, 10);
}

/**
 * bad.csv's `exemption` cell (decision 184), written from the data independently of the engine: for each list holding
 * the number in the reason order (container, litigation, the federal list, the states) whose hit the record did not
 * clear, why; identical parts once.
 */
function refNotApplied(x: number, rec: RefExemption, at: number, lists: RefLists): string {
  const parts: string[] = [];
  const add = (t: string) => {
    if (!parts.includes(t)) parts.push(t);
  };
  if (lists.container.has(x)) add("your container: never exempted");
  if (lists.litigation.has(x)) add("litigation list: never exempted");
  const [y, m, d] = rec.date.split("-").map(Number);
  for (const [kind, set] of [["dnc", lists.dnc] as const, ...lists.stateLists]) {
    if (!set.has(x)) continue;
    const w = exemptionWindowsOf(kind)!;
    if (refExemptionEnd(rec, at, w) !== undefined) continue; // cleared
    if (Date.UTC(y, m - 1, d) > at) {
      add(`${rec.basis} ${rec.date}: dated after the evaluation instant`);
      continue;
    }
    const months = rec.basis === "purchase" ? w.purchaseMonths : w.inquiryMonths;
    const place = kind === "dnc" ? "the federal rule" : STATE_NAMES.get(kind)!;
    add(
      months === 0
        ? `${rec.basis} ${rec.date}: ${place} allows no ${rec.basis} exemption`
        : `${rec.basis} ${rec.date}: ${place} allows ${months} month${months === 1 ? "" : "s"}, ended ${refEndDate(rec, months)}`,
    );
  }
  return parts.join("; ");
}
const STATE_NAMES = new Map<string, string>(LIST_TYPES.flatMap((t) => ("state" in t && t.state ? [[t.kind, t.state.stateName] as [string, string]] : [])));

function reference(text: string, delim: string, lists: RefLists) {
  const rows = refParse(text, delim);
  const header = rows[0];
  const width = header.length;
  const phoneCol = header.findIndex((h) => /phone|number|mobile|cell|tel/i.test(h.value));
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const line = (r: RefField[]) => r.map(refCell).join(delim);
  const head = line(header);
  const ex = lists.exemptions;
  // every file gains phone_e164 after the file's own columns (decision 184): +1 and the ten digits read, empty when invalid
  const e164Head = `${delim}phone_e164`;
  const out = {
    good: bom + head + e164Head + (ex ? `${delim}exemption` : "") + "\n",
    bad: bom + head + e164Head + delim + "reason" + (ex ? `${delim}exemption` : "") + "\n",
    invalid: bom + head + e164Head + delim + "reason\n",
  };
  const counts = { good: 0, bad: 0, invalid: 0 };
  const seen = new Set<number>();
  for (const r of rows.slice(1)) {
    const v = phoneCol < r.length ? r[phoneCol].value : "";
    const x = refNormalize(v);
    let kind: "good" | "bad" | "invalid";
    let reason = "";
    let note = "";
    if (typeof x === "string") {
      kind = "invalid";
      reason = x;
    } else if (seen.has(x)) {
      kind = "bad";
      reason = "duplicate";
    } else {
      seen.add(x);
      const state = AREA_CODE_STATES.get(Math.floor(x / 1e7)) ?? "";
      if (lists.states && !lists.states.has(state)) [kind, reason] = ["bad", "state"];
      else if (lists.container.has(x)) [kind, reason] = ["bad", "container"];
      else if (lists.litigation.has(x)) [kind, reason] = ["bad", "litigation"];
      else {
        // the registry lists holding it (the federal list, then the states in order); a record clears the ones whose
        // windows it is within; the first one left gives the reason
        const held = [["dnc", lists.dnc] as const, ...lists.stateLists].filter(([, set]) => set.has(x)).map(([k]) => k);
        const rec = ex?.records.get(x);
        const ends: string[] = [];
        const left = held.filter((k) => {
          const end = rec ? refExemptionEnd(rec, ex!.at, exemptionWindowsOf(k)!) : undefined;
          if (end === undefined) return true;
          if (end !== null) ends.push(end);
          return false;
        });
        if (left.length) [kind, reason] = ["bad", left[0]];
        else if (held.length && rec) {
          kind = "good";
          note = rec.basis === "consent" ? `consent ${rec.date}` : `"${rec.basis} ${rec.date}, exempt until ${ends.sort()[0]}"`;
        } else kind = "good";
      }
    }
    counts[kind]++;
    const e164 = typeof x === "number" ? `+1${x}` : "";
    const own = line(r) + delim.repeat(Math.max(0, width - r.length)) + delim + e164;
    if (kind === "good" && ex) out.good += own + delim + note + "\n";
    else if (kind === "good") out.good += own + "\n";
    else if (kind === "bad" && ex) {
      // a listed number's record that did not apply says why; duplicates and the state filter are no list's
      const rec = ex.records.get(x as number);
      const listed = reason !== "duplicate" && reason !== "state";
      const words = rec && listed ? refNotApplied(x as number, rec, ex.at, lists) : "";
      const cell = words.includes(delim) || words.includes('"') ? `"${words.replace(/"/g, '""')}"` : words;
      out.bad += own + delim + reason + delim + cell + "\n";
    } else out[kind] += own + delim + reason + "\n";
  }
  return { out, counts };
}

// ---------- random data ----------

const AREAS = [212, 305, 512, 213, 415, 786, 945, 202, 907, 617, 303, 404];
/** Canadian area codes (Toronto, Vancouver): the numbers of Canada's National DNCL in the oracle. */
const CANADIAN_AREAS = [416, 604];

function generate(seed: number) {
  const r = seededRandom(seed);
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)];
  const universe: number[] = [];
  for (let i = 0; i < 120_000; i++) {
    const nxx = 200 + Math.floor(r() * 800);
    const line = Math.floor(r() * 10_000);
    if (nxx % 100 === 11 || (nxx === 555 && line >= 100 && line < 200)) continue; // not numbers (see refNormalize)
    universe.push(pick(AREAS) * 1e7 + nxx * 1e4 + line);
  }
  const sample = (k: number) => new Set(Array.from({ length: k }, () => pick(universe)));
  const litigation = sample(3_000);
  const dnc = sample(20_000);
  const container = sample(2_000);
  // every state list (15 lists with the container: more than one byte of Bloom flags), overlapping the others
  const stateLists = new Map(STATE_LIST_KINDS.map((k) => [k as string, sample(1_500)]));
  // Canada's National DNCL (decision 179): Canadian numbers (416, 604), and some US numbers its loads leave out
  const canadian: number[] = [];
  for (let i = 0; i < 1_200; i++) {
    const nxx = 200 + Math.floor(r() * 800);
    if (nxx % 100 === 11 || nxx === 555) continue;
    canadian.push(pick(CANADIAN_AREAS) * 1e7 + nxx * 1e4 + Math.floor(r() * 10_000));
  }
  stateLists.set("dnc-ca", new Set([...canadian, ...sample(300)]));
  /** What each list holds after its loads: Canada's without the US numbers (the reference's lists). */
  const stateHeld = new Map(
    [...stateLists].map(([k, set]) => [k, k === "dnc-ca" ? new Set([...set].filter((x) => CANADIAN_AREAS.includes(Math.floor(x / 1e7)))) : set]),
  );

  const fmt = (x: number): string => {
    const s = String(x);
    const [a, b, c] = [s.slice(0, 3), s.slice(3, 6), s.slice(6)];
    switch (Math.floor(r() * 10)) {
      case 0:
        return `+1${s}`;
      case 1:
        return `1${s}`;
      case 2:
        return `${a}.${b}.${c}`;
      case 3:
        return `${a}-${b}-${c}`;
      case 4:
        return `(${a}) ${b}-${c}`;
      case 5:
        return ` ${s} `;
      case 6:
        return `+1 (${a}) ${b} ${c}`;
      case 7:
        return `1-${a}-${b}-${c}`;
      case 8:
        return pick([
          `${a}\u00a0${b}\u00a0${c}`,
          `${a}\u2013${b}\u2013${c}`,
          `${a}/${b}-${c}`,
          `tel:+1${s}`,
          `'${s}`,
          `${a}-${b}-${c} ext ${pick(["1", "12", "345"])}`,
          `${a}.${b}.${c} x7`,
          `${s}#9`,
          `+1\u2009${a}\u2212${b}\u2212${c}`,
        ]);
      default:
        return s;
    }
  };
  const invalid = (): string =>
    pick([
      "",
      "   ",
      "1.23457E+9",
      "2.12555E+09",
      "555-1234",
      "212555012345",
      "0125552123",
      "1125552123",
      "2120550123",
      "call me",
      "212-555-01x3",
      "22125552123",
      "+44 20 7946 0958",
      "N/A",
      "9115552345",
      "3702342345",
      "2129112345",
      "2125550123",
      "(305) 555-0199",
      "2125552123 2125552124",
      "212-555-CALL",
      "+2125552123",
    ]);
  const names = ["Ann", "Bob", "=cmd|' /C calc'!A0", "@SUM(1+1)", "+1-2", "-3", "Zoë", 'Dr "Q"', "a,b", "-HYPERLINK(x)"];
  const notes = ["", "ok", "multi\nline", "semi;colon", 'quote "x"', "tab\tin", "crlf\r\ninside", "=2+5"];

  const delim = ",";
  const q = (v: string, force = false) => (force || /[",\n\r]/.test(v) || r() < 0.15 ? `"${v.replace(/"/g, '""')}"` : v);
  const lines: string[] = [q("id") + delim + q("Name") + delim + q("Phone Number") + delim + q("Note")];
  const used: number[] = [];
  const hot = [litigation, dnc, container, ...stateLists.values()].map((set) => [...set].slice(0, 400));
  for (let i = 0; i < ROWS; i++) {
    const roll = r();
    let phone: string;
    if (roll < 0.06) phone = invalid();
    else if (roll < 0.2 && used.length) phone = fmt(pick(used));
    else {
      const x = r() < 0.35 ? pick(hot[Math.floor(r() * hot.length)]) : pick(universe);
      used.push(x);
      if (used.length > 5000) used.splice(0, 1000);
      phone = fmt(x);
    }
    const fields = [String(i), pick(names), phone, pick(notes)];
    if (r() < 0.03) fields.push("extra", "more");
    if (r() < 0.01) fields.length = 2; // short row: no phone cell
    let row = fields.map((f) => q(f)).join(delim);
    if (r() < 0.002) row += "\n"; // an empty line follows
    lines.push(row);
  }
  const eol = () => (r() < 0.5 ? "\r\n" : "\n");
  let text = "\uFEFF"; // a BOM (service.test.ts covers files without)
  for (const l of lines) text += l + eol();
  return { text, litigation, dnc, container, stateLists, stateHeld, delim };
}

for (const kind of storeKinds) {
  describe(`oracle [${kind}]`, () => {
    let handle: DbHandle;
    let svc: InProcessScrubService;
    let dir: string;
    beforeAll(async () => {
      handle = await createTestDb();
      dir = tmpDir("oracle");
      svc = await startService(handle, kind, { dataDir: dir, batchBytes: 64 * 1024 });
    });
    afterAll(async () => {
      await cleanupService(svc);
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it(`splits ${ROWS.toLocaleString("en-US")} random rows exactly like the reference`, { timeout: 120_000 }, async () => {
      const g = generate(kind === "redis" ? 1234 : kind === "cluster" ? 4321 : 5678);
      const userId = await createUser(handle);
      const ids = await adminListIds(handle);
      const containerId = await createContainer(handle, userId);

      // Lists through every loading path: file add (CSV and plain), manual add, remove, replace.
      const litArr = [...g.litigation];
      const extraLit = [2125552100, 3055552101];
      const litFile = path.join(dir, "lit.txt");
      fs.writeFileSync(litFile, [...litArr, ...extraLit].map(String).join("\n") + "\n");
      const dncFile = path.join(dir, "dnc.csv");
      fs.writeFileSync(dncFile, "phone,source\r\n" + [...g.dnc].map((x, i) => `${i % 2 ? "+1 " : ""}${x},reg\r\n`).join(""));
      for (const [listId, file] of [
        [ids.litigation, litFile],
        [ids.dnc, dncFile],
      ] as const) {
        const id = await createListLoad(handle.db, { listId, mode: "add", fileName: path.basename(file), inputPath: file });
        await svc.enqueueListLoad(id);
        expect(await svc.waitFor("load", id)).toBe("completed");
      }
      // the state lists: Texas from a file with its release date, the others typed in
      const stateIds = new Map<string, number>(
        (
          await handle.db
            .selectFrom("lists")
            .select(["id", "kind"])
            .where("kind", "in", [...STATE_LIST_KINDS])
            .execute()
        ).map((l) => [l.kind, l.id]),
      );
      for (const [k, set] of g.stateLists) {
        if (k === "dnc-tx") {
          const txFile = path.join(dir, "tx.txt");
          fs.writeFileSync(txFile, [...set].map(String).join("\n") + "\n");
          const id = await createListLoad(handle.db, {
            listId: stateIds.get(k)!,
            mode: "add",
            fileName: "tx.txt",
            inputPath: txFile,
            registryDate: new Date(),
          });
          await svc.enqueueListLoad(id);
          expect(await svc.waitFor("load", id)).toBe("completed");
        } else {
          await svc.loadNumbers({ listId: stateIds.get(k)!, mode: "add", numbers: [...set].map(String) });
        }
      }
      const removed = await svc.loadNumbers({ listId: ids.litigation, mode: "remove", numbers: extraLit.map(String) });
      expect(removed.removed).toBe(2);
      const before = [...g.container].slice(0, 100).map(String);
      await svc.loadNumbers({ listId: containerId, mode: "add", numbers: before });
      const replaced = await svc.loadNumbers({ listId: containerId, mode: "replace", numbers: [...g.container].map(String) });
      expect(replaced.size).toBe(g.container.size);

      const input = path.join(dir, "input.csv");
      fs.writeFileSync(input, g.text);
      const states = ["NY", "FL", "TX", "CA", "DC", "MA"];
      const jobId = await createScrubJob(handle.db, {
        userId,
        fileName: "input.csv",
        inputPath: input,
        suppressionType: "DNCAndLitigation",
        containerId,
        states,
      });
      await svc.enqueue(jobId);
      expect(await svc.waitFor("job", jobId, 110_000)).toBe("completed");
      const job = await handle.db.selectFrom("scrub_jobs").selectAll().where("id", "=", jobId).executeTakeFirstOrThrow();
      const files = await handle.db.selectFrom("result_files").selectAll().where("job_id", "=", jobId).execute();

      const want = reference(g.text, g.delim, {
        container: g.container,
        litigation: g.litigation,
        dnc: g.dnc,
        stateLists: g.stateHeld,
        states: new Set(states),
      });
      let mismatches = 0;
      for (const k of ["good", "bad", "invalid"] as const) {
        const got = fs.readFileSync(files.find((f) => f.kind === k)!.path, "utf8");
        const a = got.split("\n");
        const b = want.out[k].split("\n");
        for (let i = 0; i < Math.max(a.length, b.length); i++) {
          if (a[i] !== b[i]) {
            if (mismatches < 5) console.warn(`[${k}] line ${i}: got ${JSON.stringify(a[i])} want ${JSON.stringify(b[i])}`);
            mismatches++;
          }
        }
      }
      expect(mismatches).toBe(0);
      expect([Number(job.good_count), Number(job.bad_count), Number(job.invalid_count)]).toEqual([want.counts.good, want.counts.bad, want.counts.invalid]);
      expect(Number(job.total_rows)).toBe(ROWS);
      // the certificate names every list checked, the state lists with their versions
      const cert = await handle.db.selectFrom("scrub_certificates").select("document").where("job_id", "=", jobId).executeTakeFirstOrThrow();
      const named = (JSON.parse(cert.document).certificate.lists as { kind: string; name: string; version: number; count: number }[]).map((l) => [
        l.kind,
        l.count,
      ]);
      expect(named).toEqual([
        ["container", g.container.size],
        ["litigation", g.litigation.size],
        ["dnc", g.dnc.size],
        ...[...g.stateHeld].map(([k, set]) => [k, set.size]),
      ]);
      // the data really exercised every path
      const reasons = job.reason_counts as Record<string, number>;
      // (Canadian numbers have no US state: this job's state filter takes them all, the next job has none)
      for (const r of [
        "litigation",
        "dnc",
        ...STATE_LIST_KINDS.filter((k) => k !== "dnc-ca"),
        "container",
        "duplicate",
        "state",
        "excel_notation",
        "empty",
        "wrong_length",
        "service_area_code",
        "unassigned_area_code",
        "service_exchange",
        "fictional_number",
        "two_numbers",
        "not_nanp",
      ]) {
        expect(reasons[r], r).toBeGreaterThan(0);
      }
      expect(reasons["dnc-ca"]).toBe(0);

      // The same file and lists without a state filter: Canadian numbers on Canada's list are bad as dnc-ca, the US
      // numbers its file held (left out by the load) are judged by the other lists only.
      const noFilterJob = await createScrubJob(handle.db, {
        userId,
        fileName: "input.csv",
        inputPath: input,
        suppressionType: "DNCAndLitigation",
        containerId,
      });
      await svc.enqueue(noFilterJob);
      expect(await svc.waitFor("job", noFilterJob, 110_000)).toBe("completed");
      const nfJob = await handle.db.selectFrom("scrub_jobs").selectAll().where("id", "=", noFilterJob).executeTakeFirstOrThrow();
      const nfFiles = await handle.db.selectFrom("result_files").selectAll().where("job_id", "=", noFilterJob).execute();
      const wantNf = reference(g.text, g.delim, { container: g.container, litigation: g.litigation, dnc: g.dnc, stateLists: g.stateHeld, states: null });
      let nfWrong = 0;
      for (const k of ["good", "bad", "invalid"] as const) {
        const a = fs.readFileSync(nfFiles.find((f) => f.kind === k)!.path, "utf8").split("\n");
        const b = wantNf.out[k].split("\n");
        for (let i = 0; i < Math.max(a.length, b.length); i++) {
          if (a[i] !== b[i]) {
            if (nfWrong < 5) console.warn(`[no state filter ${k}] line ${i}: got ${JSON.stringify(a[i])} want ${JSON.stringify(b[i])}`);
            nfWrong++;
          }
        }
      }
      expect(nfWrong).toBe(0);
      expect([Number(nfJob.good_count), Number(nfJob.bad_count), Number(nfJob.invalid_count)]).toEqual([
        wantNf.counts.good,
        wantNf.counts.bad,
        wantNf.counts.invalid,
      ]);
      expect((nfJob.reason_counts as Record<string, number>)["dnc-ca"]).toBeGreaterThan(0);

      // The same file and lists with an exemption list (decision 161): records on every kind of list (a row on the
      // federal or a state list becomes good while its record applies under every such list's own windows;
      // litigation and container rows never), dates on both sides of each window's end and after the instant,
      // month ends and leap days.
      const r = seededRandom(kind === "redis" ? 99 : kind === "cluster" ? 98 : 97);
      const at = Date.parse("2026-07-31T12:00:00Z");
      const dates = [
        "2025-01-30",
        "2025-01-31",
        "2025-02-01",
        "2026-04-30",
        "2026-05-01",
        "2024-02-29",
        "2026-07-31",
        "2026-08-01",
        "2025-08-31",
        "2026-04-29",
      ];
      const pool = [
        ...g.dnc,
        ...[...g.litigation].slice(0, 500),
        ...[...g.container].slice(0, 500),
        ...[...g.stateLists.values()].flatMap((set) => [...set].slice(0, 300)),
      ];
      const records = new Map<number, RefExemption>();
      for (let i = 0; i < 12_000; i++) {
        const x = pool[Math.floor(r() * pool.length)];
        if (records.has(x)) continue;
        const basis = (["purchase", "inquiry", "consent"] as const)[Math.floor(r() * 3)];
        records.set(x, { basis, date: dates[Math.floor(r() * dates.length)] });
      }
      const exemptionText = [...records].map(([x, e]) => `${x},${e.basis},${e.date}`).join("\n");
      const exemptionList = await createExemptionList(handle.db, { userId, name: "oracle" });
      await loadExemptions(handle.db, {
        listId: exemptionList.id,
        userId,
        mode: "replace",
        rows: await readExemptionRows({ text: exemptionText }, new Date("2026-11-26T00:00:00Z")),
      });
      const exemptJob = await createScrubJob(handle.db, {
        userId,
        fileName: "input.csv",
        inputPath: input,
        suppressionType: "DNCAndLitigation",
        containerId,
        states,
        exemptionListId: exemptionList.id,
        evaluatedAt: new Date(at),
      });
      await svc.enqueue(exemptJob);
      expect(await svc.waitFor("job", exemptJob, 110_000)).toBe("completed");
      const exJob = await handle.db.selectFrom("scrub_jobs").selectAll().where("id", "=", exemptJob).executeTakeFirstOrThrow();
      const exFiles = await handle.db.selectFrom("result_files").selectAll().where("job_id", "=", exemptJob).execute();
      const wantEx = reference(g.text, g.delim, {
        container: g.container,
        litigation: g.litigation,
        dnc: g.dnc,
        stateLists: g.stateHeld,
        states: new Set(states),
        exemptions: { records, at },
      });
      let wrong = 0;
      for (const k of ["good", "bad", "invalid"] as const) {
        const a = fs.readFileSync(exFiles.find((f) => f.kind === k)!.path, "utf8").split("\n");
        const b = wantEx.out[k].split("\n");
        for (let i = 0; i < Math.max(a.length, b.length); i++) {
          if (a[i] !== b[i]) {
            if (wrong < 5) console.warn(`[exemptions ${k}] line ${i}: got ${JSON.stringify(a[i])} want ${JSON.stringify(b[i])}`);
            wrong++;
          }
        }
      }
      expect(wrong).toBe(0);
      expect([Number(exJob.good_count), Number(exJob.bad_count), Number(exJob.invalid_count)]).toEqual([
        wantEx.counts.good,
        wantEx.counts.bad,
        wantEx.counts.invalid,
      ]);
      // every basis let rows through, and fewer DNC rows are bad than without exemptions
      const byBasis = (exJob.exemption_summary as { byBasis: Record<string, number> }).byBasis;
      for (const b of ["purchase", "inquiry", "consent"]) expect(byBasis[b], b).toBeGreaterThan(0);
      expect((exJob.reason_counts as Record<string, number>).dnc).toBeLessThan(reasons.dnc);
    });
  });
}

/**
 * The oracle has no calling-window reference for whole scrubs (calling/window.test.ts covers the edges); this is a
 * small independent check of one state's hours against the engine: Oregon (decision 178), 8:00-20:00 Pacific every
 * day from 2026-01-01, the federal 8:00-21:00 before. The reference reads the wall clock with Intl alone and knows
 * nothing of the engine's rule table, zones per exchange or search.
 */
describe("oracle: Oregon's calling hours against an independent reading of the clock", () => {
  const pacific = new Intl.DateTimeFormat("en-US", {
    timeZone: "America/Los_Angeles",
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  const wall = (ms: number) => {
    const p = Object.fromEntries(pacific.formatToParts(ms).map((x) => [x.type, x.value]));
    return { day: `${p.year}-${p.month}-${p.day}`, seconds: Number(p.hour) * 3600 + Number(p.minute) * 60 + Number(p.second) };
  };
  const referenceCallable = (ms: number) => {
    const w = wall(ms);
    const end = w.day >= "2026-01-01" ? 20 * 3600 : 21 * 3600;
    return w.seconds >= 8 * 3600 && w.seconds < end;
  };
  const engineCallable = (n: number, ms: number) => {
    const t = callingClassTable();
    return evaluateClass(t.classes[callingClassOf(t.byExchange, n)], ms).answer.callableNow;
  };
  const PORTLAND = 5035552345;
  const SALEM = 9715552345;

  it("19:59:59 callable, 20:00:00 not, in winter and in summer; the federal 21:00 before 2026", () => {
    for (const n of [PORTLAND, SALEM]) {
      // Wednesday 14 January 2026 (PST, UTC-8) and Wednesday 15 July 2026 (PDT, UTC-7)
      expect(engineCallable(n, Date.parse("2026-01-15T03:59:59Z"))).toBe(true);
      expect(engineCallable(n, Date.parse("2026-01-15T04:00:00Z"))).toBe(false);
      expect(engineCallable(n, Date.parse("2026-07-16T02:59:59Z"))).toBe(true);
      expect(engineCallable(n, Date.parse("2026-07-16T03:00:00Z"))).toBe(false);
      // Wednesday 31 December 2025, 20:30 PST: the federal hours still
      expect(engineCallable(n, Date.parse("2026-01-01T04:30:00Z"))).toBe(true);
    }
  });

  it("agrees with the reference every 7 minutes 30 seconds over two weeks around New Year and around the summer change", () => {
    let compared = 0;
    for (const [from, to] of [
      ["2025-12-25T00:00:00Z", "2026-01-08T00:00:00Z"],
      ["2026-03-01T00:00:00Z", "2026-03-15T00:00:00Z"],
    ]) {
      for (let ms = Date.parse(from); ms < Date.parse(to); ms += 450_000) {
        expect(engineCallable(PORTLAND, ms), new Date(ms).toISOString()).toBe(referenceCallable(ms));
        compared++;
      }
    }
    expect(compared).toBe(2 * 14 * 24 * 8);
  });
});

/**
 * The oracle with a call history (issue #46, decision 191): 3,000 Florida and New York numbers with random histories
 * (calls and texts, every outcome, two subjects, two debts and none, up to 8 days back and a minute ahead of the
 * instant), scrubbed with calling times for telemarketing and for debt collection (each row's debt from a column, some
 * empty), against an independent count written here from the texts (Fla. Stat. § 501.616(6)(b): three per 24 hours on
 * one subject, calls and texts; 12 CFR 1006.14(b)(2): seven calls per seven days about a debt, none within seven days
 * after a conversation about it; a record without a debt id, or a row without one, counts against every debt). Every
 * good row's calls_24h and calls_7d must be the reference's, callable_now must be "no" exactly where a cap holds, and
 * there next_call_at is not before the lift and the note names it. Noon in New York on a Wednesday: the hours hold no one.
 */
describe("oracle: call caps against an independent count", () => {
  const AT = Date.parse("2026-12-02T17:00:00Z");
  const H = 3_600_000;
  const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
  let handle: DbHandle;
  let svc: InProcessScrubService;
  let dir: string;
  beforeAll(async () => {
    handle = await createTestDb("pglite");
    dir = tmpDir("oracle-calls");
    svc = await startService(handle, "embedded", { dataDir: dir });
  }, 60_000);
  afterAll(async () => {
    if (svc) await cleanupService(svc);
    await handle?.close();
  });

  it("counts and holds every row as the reference does, telemarketing and debt collection", { timeout: 120_000 }, async () => {
    const r = seededRandom(191);
    const userId = await createUser(handle);
    type Rec = { t: number; channel: "call" | "text"; outcome: "attempted" | "connected" | "conversation"; subject: string; debt: string | null };
    const numbers = Array.from({ length: 3000 }, (_, i) => (i % 2 ? 3055550000 : 2125550000) + 2000 + Math.floor(i / 2));
    const history = new Map<number, Rec[]>();
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
    for (const n of numbers) {
      const recs: Rec[] = [];
      const k = Math.floor(r() * 10);
      for (let j = 0; j < k; j++) {
        recs.push({
          // mostly within the day (the state cap), some over the week (Regulation F), a few a minute ahead
          t: AT - (r() < 0.08 ? -60_000 : r() < 0.5 ? Math.floor(r() * 24 * H) : Math.floor(r() * 8 * 24 * H)),
          channel: pick(["call", "call", "text"] as const),
          outcome: pick(["attempted", "attempted", "connected", "conversation"] as const),
          subject: pick(["default", "default", "spring"]),
          debt: pick([null, "A", "A", "B"]),
        });
      }
      history.set(n, recs);
    }
    const all = [...history].flatMap(([n, recs]) =>
      recs.map((x) => ({
        number: String(n),
        at: new Date(x.t).toISOString(),
        channel: x.channel,
        outcome: x.outcome,
        subject: x.subject,
        ...(x.debt ? { debt_id: x.debt } : {}),
      })),
    );
    for (let i = 0; i < all.length; i += 10_000) {
      const checked = checkCallRecords(all.slice(i, i + 10_000), AT);
      if (!checked.ok) throw new Error(JSON.stringify(checked.errors.slice(0, 3)));
      await recordCalls(handle.db, userId, checked.records);
    }
    const debts = new Map(numbers.map((n) => [n, pick(["A", "B", ""])]));
    const input = path.join(dir, "calls-input.csv");
    fs.writeFileSync(input, ["phone,account", ...numbers.map((n) => `${n},${debts.get(n)}`)].join("\n") + "\n");

    /** The reference: what holds a number's next call, each hold's lift (ms), for a purpose and the row's debt. */
    const reference = (n: number, purpose: "telemarketing" | "debt-collection", rowDebt: string | null): number[] => {
      const recs = history.get(n)!;
      const lifts: number[] = [];
      if (purpose === "telemarketing") {
        if (Math.floor(n / 10_000_000) !== 305) return lifts;
        const times = recs
          .filter((x) => x.t > AT - 24 * H && x.subject === "default")
          .map((x) => x.t)
          .sort((a, b) => a - b);
        if (times.length >= 3) lifts.push(times[times.length - 3] + 24 * H);
        return lifts;
      }
      const about = recs.filter((x) => x.channel === "call" && x.t > AT - 168 * H && (x.debt === null || rowDebt === null || x.debt === rowDebt));
      const times = about.map((x) => x.t).sort((a, b) => a - b);
      if (times.length >= 7) lifts.push(times[times.length - 7] + 168 * H);
      const talks = about.filter((x) => x.outcome === "conversation").map((x) => x.t);
      if (talks.length) lifts.push(Math.max(...talks) + 168 * H);
      return lifts;
    };

    for (const purpose of ["telemarketing", "debt-collection"] as const) {
      const jobId = await createScrubJob(handle.db, {
        userId,
        fileName: "calls-input.csv",
        inputPath: input,
        suppressionType: "LitigationOnly",
        callingWindow: true,
        evaluatedAt: new Date(AT),
        purpose,
        debtColumn: purpose === "debt-collection" ? "account" : null,
      });
      await svc.enqueue(jobId);
      expect(await svc.waitFor("job", jobId, 110_000)).toBe("completed");
      const files = await handle.db.selectFrom("result_files").selectAll().where("job_id", "=", jobId).execute();
      const lines = fs
        .readFileSync(files.find((f) => f.kind === "good")!.path, "utf8")
        .trim()
        .split("\n");
      expect(lines[0]).toBe("phone,account,phone_e164,time_zone,callable_now,next_call_at,next_call_local,calling_note,calls_24h,calls_7d");
      expect(lines.length - 1).toBe(numbers.length);
      let wrong = 0;
      let held = 0;
      for (const line of lines.slice(1)) {
        // the note may be quoted (it names a debt in quotes): the last two cells are the counts, the 4th to 6th the answer
        const cells = line.split(",");
        const n = Number(cells[0]);
        const [day, week] = cells.slice(-2).map(Number);
        const callable = cells[4] === "yes";
        const next = Date.parse(cells[5]);
        const note = line.slice(line.indexOf(cells[6]) + cells[6].length + 1, line.length - cells.slice(-2).join(",").length - 1);
        const recs = history.get(n)!;
        const wantDay = recs.filter((x) => x.t > AT - 24 * H).length;
        const wantWeek = recs.filter((x) => x.t > AT - 168 * H).length;
        // (a lift to the millisecond; the file's instants are whole seconds)
        const lifts = reference(n, purpose, debts.get(n) || null);
        const ok =
          day === wantDay &&
          week === wantWeek &&
          callable === (lifts.length === 0) &&
          (lifts.length === 0 || (next >= Math.floor(Math.max(...lifts) / 1000) * 1000 && lifts.every((l) => note.includes(`next at ${iso(l)}`))));
        if (!ok) {
          if (wrong < 5) console.warn(`[calls ${purpose}] ${line} want ${wantDay},${wantWeek} lifts ${lifts.map(iso).join(" ")}`);
          wrong++;
        }
        if (lifts.length) held++;
      }
      expect(wrong).toBe(0);
      // the draw reaches the caps (a fixed seed: the same rows every time)
      expect(held).toBeGreaterThan(50);
    }
  });
});
