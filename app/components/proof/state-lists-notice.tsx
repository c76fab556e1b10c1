import type { StateListClock } from "~/models/dnc-clock.server";
import { formatDate } from "~/utils/format";

/** The model's clock (type only: nothing of the server module reaches the browser bundle). */
export type StateListClockView = StateListClock;

/** The loaded state do-not-call lists past their own freshness rule (decision 160), as one banner; nothing when none is. */
export function StateListsNotice({ clocks, refusing }: { clocks: StateListClockView[]; refusing: boolean }) {
  const stale = clocks.filter((c) => c.state === "stale");
  if (!stale.length) return null;
  return (
    <div role="alert" data-testid="state-lists-banner" className="mb-4 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p className="font-medium">{heading(stale)}</p>
      <ul className="mt-1 list-disc pl-5">
        {stale.map((c) => (
          <li key={c.kind}>
            {c.name}: {c.ageDays} days old (registry date {formatDate(c.registryDate)}; {c.kind === "dnc-ca" ? "the CRTC allows" : "the state allows"}{" "}
            {c.validDays} days).
          </li>
        ))}
      </ul>
      <p className="mt-1">
        {refusing
          ? "Purges that include DNC are refused until an admin loads a newer release."
          : "A purge that includes DNC now checks against an out-of-date copy of that list."}
      </p>
    </div>
  );
}

/** Canada's National DNCL (decision 179) is no state's list: the heading names it when it is among the stale. */
function heading(stale: StateListClockView[]): string {
  const canada = stale.some((c) => c.kind === "dnc-ca");
  if (stale.length === 1)
    return canada ? "Canada's National Do Not Call List is past its freshness rule:" : "A state do-not-call list is past its freshness rule:";
  return canada ? "Do-not-call lists past their freshness rule:" : "State do-not-call lists past their freshness rule:";
}

const AGE_TONES = { fresh: "text-slate-600", warning: "text-amber-800", stale: "font-medium text-red-700" } as const;

/** The dashboard's list ages beside the federal list's line: every loaded state list and Canada's, against its own rule. */
export function ListAgesLine({ clocks }: { clocks: StateListClockView[] }) {
  if (!clocks.length) return null;
  return (
    <ul className="mb-4 mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm" data-testid="list-ages" aria-label="Loaded list ages">
      {clocks.map((c) => (
        <li key={c.kind} className={AGE_TONES[c.state]} data-tone={c.state}>
          {c.name}: {c.ageDays} {c.ageDays === 1 ? "day" : "days"} old of {c.validDays}
          {c.state === "stale" ? " (out of date)" : c.state === "warning" ? " (due soon)" : ""}
        </li>
      ))}
    </ul>
  );
}
