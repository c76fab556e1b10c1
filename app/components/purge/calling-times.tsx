import type { CallingView } from "~/models/purge.server";
import { StackedBar } from "~/components/ui/bar";
import { formatNumber } from "~/utils/format";
import { rulesHref } from "~/utils/rules-link";
import { zoneSetName } from "~/utils/zone-names";

/** Zone sets shown one bar each; the rest are summed into "Other time zones". */
const MAX_BARS = 8;

/** The zone sets by the names people use ("Mountain + Arizona"), sets with one name summed, largest first; ids kept for the tooltip. */
function namedZoneSets(byTimeZone: { zones: string; count: number }[]): { name: string; ids: string; count: number }[] {
  const byName = new Map<string, { name: string; ids: string[]; count: number }>();
  for (const z of byTimeZone) {
    const name = zoneSetName(z.zones);
    const bar = byName.get(name) ?? { name, ids: [], count: 0 };
    bar.ids.push(z.zones.split("|").join(" + "));
    bar.count += z.count;
    byName.set(name, bar);
  }
  return [...byName.values()].map((b) => ({ name: b.name, ids: b.ids.join("; "), count: b.count })).sort((a, b) => b.count - a.count);
}

/**
 * The results screen's calling times (decision 131): the good numbers callable at the purge's instant, later that
 * local day, or not that day (after hours, a Sunday or holiday ban), and a bar per time zone (SVG bars, no style
 * attribute for the CSP): readable at 390 px, no script needed.
 */
export function CallingTimes({ calling }: { calling: CallingView }) {
  const cards = [
    { key: "now", label: "Callable now", value: calling.callableNow, text: "text-green-700" },
    { key: "later", label: "Later today", value: calling.laterToday, text: "text-amber-700" },
    { key: "not-today", label: "Not today", value: calling.notToday, text: "text-red-700" },
  ];
  const named = namedZoneSets(calling.byTimeZone);
  const bars = named.slice(0, MAX_BARS);
  const rest = named.slice(MAX_BARS).reduce((s, z) => s + z.count, 0);
  if (rest > 0)
    bars.push({
      name: "Other time zones",
      ids: named
        .slice(MAX_BARS)
        .map((z) => z.ids)
        .join("; "),
      count: rest,
    });
  const max = Math.max(1, ...bars.map((b) => b.count));
  return (
    <section className="mt-6" data-testid="calling-times" aria-labelledby="calling-times-title">
      <h3 id="calling-times-title" className="text-sm font-semibold">
        Calling times
      </h3>
      <p className="text-xs text-slate-500">
        Good numbers at {calling.at.replace("T", " ").replace("Z", " UTC")}, in each number's local time (federal and state calling hours, Sunday and holiday
        bans; rules{" "}
        <a href={rulesHref(calling.rulesVersion)} className="text-blue-700 underline hover:text-blue-900" data-testid="calling-rules-link">
          {calling.rulesVersion}
        </a>
        ). The Good file has each number's time zone, callable now and next lawful time.
      </p>
      {calling.calls && (
        <p className="mt-1 text-xs text-slate-500" data-testid="calls-counted">
          Your call history was counted ({calling.calls.purpose === "debt-collection" ? "debt collection" : "telemarketing"} limits):{" "}
          {formatNumber(calling.calls.records)} call records read, {formatNumber(calling.calls.rowsWithCalls)} good numbers called in the last 7 days,{" "}
          <span className="font-medium text-slate-700">{formatNumber(calling.calls.heldByCaps)} held back by a call limit</span>. The Good file has each
          number&apos;s calls in the last 24 hours and 7 days.
        </p>
      )}
      <div className="mt-3 grid gap-3 sm:grid-cols-3">
        {cards.map((c) => (
          <div key={c.key} className="rounded-lg border border-slate-200 p-4" data-testid={`calling-${c.key}`}>
            <p className={`text-sm font-medium ${c.text}`}>{c.label}</p>
            <p className="text-2xl font-semibold tabular-nums" data-testid={`calling-${c.key}-value`}>
              {formatNumber(c.value)}
            </p>
          </div>
        ))}
      </div>
      {calling.noTimeZone > 0 && (
        <p className="mt-2 text-xs text-slate-500" data-testid="calling-no-zone">
          {formatNumber(calling.noTimeZone)} toll-free or other non-geographic numbers have no time zone: their rows give the strictest answer across every US
          time zone.
        </p>
      )}
      {calling.heldBack.length > 0 && <HeldBack heldBack={calling.heldBack} rulesVersion={calling.rulesVersion} />}
      {bars.length > 0 && (
        <figure className="mt-4">
          <figcaption className="mb-2 text-xs font-medium text-slate-600">Good numbers by time zone</figcaption>
          <ul className="space-y-2" aria-label="Good numbers by time zone">
            {bars.map((b) => (
              <li key={b.name} className="text-xs">
                <div className="flex items-baseline justify-between gap-2">
                  <span className="min-w-0 break-words text-slate-700" title={b.ids}>
                    {b.name}
                  </span>
                  <span className="shrink-0 tabular-nums text-slate-600">{formatNumber(b.count)}</span>
                </div>
                <StackedBar
                  className="mt-0.5 h-2 w-full"
                  track="bg-slate-100"
                  segments={[{ key: "count", percent: Math.max(1, (b.count / max) * 100), fill: "fill-blue-500" }]}
                />
              </li>
            ))}
          </ul>
        </figure>
      )}
    </section>
  );
}

/** Each rule that held good numbers back at the instant (the Good file's calling_note), with its rows (#44). */
function HeldBack({ heldBack, rulesVersion }: { heldBack: { note: string; count: number }[]; rulesVersion: string }) {
  return (
    <div className="mt-4 overflow-x-auto">
      <table className="w-full text-left text-xs" aria-labelledby="held-back-title" data-testid="calling-held-back">
        <caption id="held-back-title" className="mb-1 text-left text-xs font-medium text-slate-600">
          Why numbers were held back (the Good file&apos;s calling_note;{" "}
          <a href={rulesHref(rulesVersion)} className="text-blue-700 underline hover:text-blue-900">
            every rule and its source
          </a>
          )
        </caption>
        <thead className="text-slate-500">
          <tr>
            <th scope="col" className="py-1 pr-2 font-medium">
              Rule
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Numbers
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {heldBack.map((h) => (
            <tr key={h.note}>
              <td className="break-words py-1 pr-2 text-slate-700">{h.note}</td>
              <td className="py-1 text-right tabular-nums text-slate-700">{formatNumber(h.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
