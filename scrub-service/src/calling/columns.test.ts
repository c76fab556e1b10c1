/**
 * The calling cells as the emit writes them (one byte string per class, made once per scrub, copied word by word
 * after each good row) against the answer computed directly for each number: zones from the per-exchange lookup,
 * evaluateCalling at the instant, isoSecond.
 */
import { describe, expect, it } from "vitest";
import { CLASS_GOOD, emitRows, parseRows } from "../worker/csv";
import { evaluateClasses, freshCounts, summarizeCalling } from "./columns";
import { callingClassOf, callingClassTable, timeZonesOf } from "./exchanges";
import { callingNote } from "./note";
import { evaluateCalling, isoSecond } from "./window";

const NUMBERS = [
  9072345234, // America/Adak|America/Anchorage: two zones
  8005552345, // toll-free: no zone, the strictest reading across every US time zone
  3055552345, // Florida
  6015552345, // Mississippi (a rule on Central Standard Time all year)
  4165552345, // Toronto
  2083315234, // Idaho, a split area code
  6025552345, // Phoenix (no DST)
  2125552345, // New York
];

const INSTANTS = [
  "2026-11-25T19:30:00Z",
  "2026-03-08T07:30:00Z", // 2:30 a.m. in New York: in the spring-forward gap
  "2026-03-08T10:59:59Z", // a second before 3 a.m. Pacific after its spring forward
  "2026-11-01T06:30:00Z", // 1:30 a.m. in New York, fall-back day: a wall time that happens twice
  "2026-11-01T09:00:00Z",
];

const quoted = (text: string, d: string) => (text.includes(d) || text.includes('"') ? `"${text.replaceAll('"', '""')}"` : text);

/** The cells for n at `at`, computed directly (not through the class's memoised bytes). */
function direct(n: number, at: number, d: string): string {
  const zones = timeZonesOf(n);
  const t = callingClassTable();
  const cls = t.classes[callingClassOf(t.byExchange, n)];
  // no zone of its own: every US time zone (decision 180)
  const read = zones.length ? zones : cls.readZones;
  const a = evaluateCalling(read, cls.rules, at);
  const note = callingNote(a, read, zones.length === 0);
  // next_call_local: in the zone the note reads first, else the first zone; none without a zone (decision 184)
  const local = zones.length ? intlLocal(a.nextCallAt, a.holds.length ? a.holds[0].zone : zones[0]) : "";
  return d + quoted(zones.join("|"), d) + d + (a.callableNow ? "yes" : "no") + d + isoSecond(a.nextCallAt) + d + local + d + quoted(note, d);
}

/** An instant as a zone's wall time with its offset, read with Intl's own offset name (independent of clock.ts). */
function intlLocal(ms: number, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "longOffset",
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === "GMT" ? "+00:00" : parts.timeZoneName.slice(3);
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

describe("calling cells in good.csv", () => {
  it("are the direct answer for each number: two zones, toll-free, either side of DST changes, any delimiter", () => {
    const encoder = new TextEncoder();
    for (const d of [",", "|", ";"]) {
      const delim = d.charCodeAt(0);
      const text = NUMBERS.map((n, i) => `row${i}${d}${n}`).join("\n") + "\n";
      const buf = encoder.encode(text);
      const rows = parseRows(buf, 0, buf.length, delim, 1);
      expect(rows.count).toBe(NUMBERS.length);
      for (const iso of INSTANTS) {
        const at = Date.parse(iso);
        const table = callingClassTable();
        const evaluation = evaluateClasses(table, at, delim);
        const counts = freshCounts(table.classes.length);
        const [good] = emitRows(buf, {
          rows,
          classes: new Uint8Array(rows.count).fill(CLASS_GOOD),
          reasonIdx: new Uint8Array(rows.count),
          reasons: [""],
          delim,
          width: 2,
          end: buf.length,
          goodSuffixes: { ...evaluation.suffixes, counts },
        });
        const expected = NUMBERS.map((n, i) => `row${i}${d}${n}${direct(n, at, d)}\n`).join("");
        expect(new TextDecoder().decode(good), `${iso}, delimiter ${d}`).toBe(expected);
        expect(counts.reduce((s, c) => s + c, 0)).toBe(NUMBERS.length);
      }
    }
  });

  it("sum each held-back note with its rows for the results screen (#44): the same notes good.csv carries, none for callable rows", () => {
    const table = callingClassTable();
    for (const iso of INSTANTS) {
      const at = Date.parse(iso);
      const evaluation = evaluateClasses(table, at, 44);
      const counts = freshCounts(table.classes.length);
      const expected = new Map<string, number>();
      for (const n of NUMBERS) {
        const c = callingClassOf(table.byExchange, n);
        counts[c] += 2;
        const cells = direct(n, at, ",");
        if (cells.split(",")[2] === "no") expected.set(evaluation.notes[c], (expected.get(evaluation.notes[c]) ?? 0) + 2);
      }
      const held = summarizeCalling(table, evaluation, counts).heldBack;
      expect(new Map(held.map((h) => [h.note, h.count])), iso).toEqual(expected);
      expect(held.every((h) => h.note.length > 0)).toBe(true);
    }
  });

  it("next_call_local: next_call_at on the number's clock with the offset in force then, across the DST changes (decision 184)", () => {
    const table = callingClassTable();
    const local = (n: number, iso: string) => {
      const e = evaluateClasses(table, Date.parse(iso), 44);
      return e.locals[callingClassOf(table.byExchange, n)];
    };
    // 1:30 a.m. EST on spring-forward Sunday: the next call is 8 a.m. the same day, already on EDT
    expect(local(2125552345, "2026-03-08T06:30:00Z")).toBe("2026-03-08T08:00:00-04:00");
    // 1:30 a.m. EDT on fall-back Sunday: 8 a.m. EST
    expect(local(2125552345, "2026-11-01T05:30:00Z")).toBe("2026-11-01T08:00:00-05:00");
    // callable now: the instant itself, on the clock in force (summer and winter)
    expect(local(2125552345, "2026-07-15T14:30:00Z")).toBe("2026-07-15T10:30:00-04:00");
    expect(local(2125552345, "2026-11-25T19:30:00Z")).toBe("2026-11-25T14:30:00-05:00");
    // Phoenix keeps -07:00 all year; Chicago's summer is -05:00
    expect(local(6025552345, "2026-07-15T12:00:00Z")).toBe("2026-07-15T08:00:00-07:00");
    expect(local(3125552345, "2026-07-15T12:00:00Z")).toBe("2026-07-15T08:00:00-05:00");
    // a number with two zones held back by one: the clock its note names (Phoenix, not Denver's 09:00-06:00)
    expect(local(9282832345, "2026-07-15T14:30:00Z")).toBe("2026-07-15T08:00:00-07:00");
    // no time zone: empty
    expect(local(8005552345, "2026-11-25T19:30:00Z")).toBe("");
  });
});
