import type { CallingView } from "~/models/purge.server";
import { StackedBar } from "~/components/ui/bar";
import { formatNumber } from "~/utils/format";
import { rulesHref } from "~/utils/rules-link";

/** Zone sets shown one bar each; the rest are summed into "Other time zones". */
const MAX_BARS = 8;

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
  const bars = calling.byTimeZone.slice(0, MAX_BARS);
  const rest = calling.byTimeZone.slice(MAX_BARS).reduce((s, z) => s + z.count, 0);
  if (rest > 0) bars.push({ zones: "Other time zones", count: rest });
  const max = Math.max(1, ...bars.map((b) => b.count));
  return (
    <section className="mt-6" data-testid="calling-times" aria-labelledby="calling-times-title">
      <h3 id="calling-times-title" className="text-sm font-semibold">
        Calling times
      </h3>
      <p className="text-xs text-slate-500">
        Good numbers at {calling.at.replace("T", " ").replace("Z", " UTC")}, in each number's local time (federal and state calling hours, Sunday
        and holiday bans; rules{" "}
        <a href={rulesHref(calling.rulesVersion)} className="text-blue-700 underline hover:text-blue-900" data-testid="calling-rules-link">
          {calling.rulesVersion}
        </a>
        ). The Good file has each number's time zone, callable now and next lawful time.
      </p>
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
          {formatNumber(calling.noTimeZone)} toll-free or other non-geographic numbers have no time zone: their rows give the strictest answer across every US time zone.
        </p>
      )}
      {bars.length > 0 && (
        <figure className="mt-4">
          <figcaption className="mb-2 text-xs font-medium text-slate-600">Good numbers by time zone</figcaption>
          <ul className="space-y-2" aria-label="Good numbers by time zone">
            {bars.map((b) => (
              <li key={b.zones} className="text-xs">
                <div className="flex items-baseline justify-between gap-2">
                  <span className="min-w-0 break-words text-slate-700">{b.zones.split("|").join(" + ")}</span>
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
