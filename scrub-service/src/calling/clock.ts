/**
 * Wall-clock time in an IANA zone (or at a fixed UTC offset) from an instant and back, with Intl (Node's full
 * ICU carries the tz database). Pure; formatters are made once per zone.
 */

/** A zone by IANA name, or a fixed offset from UTC in minutes. */
export type Clock = string | { fixedOffsetMinutes: number };

export interface Wall {
  year: number;
  month: number;
  day: number;
  /** 0 = Sunday. */
  weekday: number;
  /** Seconds after local midnight. */
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether Intl knows the zone (a bad name would otherwise throw deep inside an evaluation). */
export function isKnownZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * Wall times already read, per zone (Intl's formatToParts is the evaluation's main cost, and the classes of one
 * scrub ask about the same instants: its start and each zone's window starts). Bounded: a zone's entries are
 * dropped when they pass 4,096.
 */
const walls = new Map<string, Map<number, Wall>>();

export function wallTime(clock: Clock, ms: number): Wall {
  if (typeof clock === "string") {
    let byMs = walls.get(clock);
    if (!byMs) walls.set(clock, (byMs = new Map()));
    let w = byMs.get(ms);
    if (!w) {
      if (byMs.size >= 4096) byMs.clear();
      byMs.set(ms, (w = readWall(clock, ms)));
    }
    return w;
  }
  return readWall(clock, ms);
}

function readWall(clock: Clock, ms: number): Wall {
  if (typeof clock !== "string") {
    const t = new Date(ms + clock.fixedOffsetMinutes * 60_000);
    return {
      year: t.getUTCFullYear(),
      month: t.getUTCMonth() + 1,
      day: t.getUTCDate(),
      weekday: t.getUTCDay(),
      second: t.getUTCHours() * 3600 + t.getUTCMinutes() * 60 + t.getUTCSeconds(),
    };
  }
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (const p of formatter(clock).formatToParts(ms)) {
    if (p.type === "year") year = Number(p.value);
    else if (p.type === "month") month = Number(p.value);
    else if (p.type === "day") day = Number(p.value);
    else if (p.type === "hour") hour = Number(p.value);
    else if (p.type === "minute") minute = Number(p.value);
    else if (p.type === "second") second = Number(p.value);
  }
  return { year, month, day, weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay(), second: hour * 3600 + minute * 60 + second };
}

/** The wall time read as if it were UTC (ms): differences with the instant give the zone's offset. */
const asUtc = (w: Wall) => Date.UTC(w.year, w.month - 1, w.day) + w.second * 1000;

/** The zone's offset from UTC in minutes at an instant (-300 in New York in winter). */
export function zoneOffsetMinutes(clock: Clock, ms: number): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return Math.round((asUtc(wallTime(clock, whole)) - whole) / 60_000);
}

/**
 * The first instant at which the clock shows (year, month, day) at `minute` after midnight or later on that
 * day: the instant itself when that wall time exists, the end of the gap when it falls in a DST gap.
 */
export function instantOf(clock: Clock, year: number, month: number, day: number, minute: number): number {
  const local = Date.UTC(year, month - 1, day) + minute * 60_000;
  if (typeof clock !== "string") return local - clock.fixedOffsetMinutes * 60_000;
  // Two rounds settle the offset; a wall time in a gap comes back shifted and is moved to the gap's end.
  let t = local - (asUtc(wallTime(clock, local)) - local);
  t = local - (asUtc(wallTime(clock, t)) - t);
  if (asUtc(wallTime(clock, t)) === local) return t;
  // In a gap (the wall time does not exist that day): step minute by minute to the first one at or after it.
  // (gaps are at most an hour here; start two hours before and never step more than four)
  let probe = Math.floor(t / 60_000) * 60_000 - 2 * 3_600_000;
  for (let i = 0; i < 240 && asUtc(wallTime(clock, probe)) < local; i++) probe += 60_000;
  return probe;
}
