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
            {c.name}: {c.ageDays} days old (registry date {formatDate(c.registryDate)}; {c.kind === "dnc-ca" ? "the CRTC allows" : "the state allows"} {c.validDays} days).
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
  if (stale.length === 1) return canada ? "Canada's National Do Not Call List is past its freshness rule:" : "A state do-not-call list is past its freshness rule:";
  return canada ? "Do-not-call lists past their freshness rule:" : "State do-not-call lists past their freshness rule:";
}
