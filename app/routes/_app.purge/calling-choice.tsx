import { inputClass } from "~/components/ui/form";
import { useTimeZone } from "~/utils/time-zone";
import { zoneName } from "~/utils/zone-names";
import type { WizardState } from "~/intake/purge-wizard";

/**
 * "Add calling times" and the time the purge answers for (#44: plan calling ahead), the same for a file's column step
 * and typed numbers: a date and time in the analyst's own time zone (named; UTC until the browser has said which),
 * empty meaning when the purge starts. It is the instant of the calling times and of the exemption list.
 */
export function CallingChoice({
  state,
  error,
  columns,
}: {
  state: WizardState;
  error?: { field?: "at"; message: string };
  /** A file's headers (its column step): the debt id column is chosen among them; typed numbers have none. */
  columns?: readonly string[];
}) {
  const zone = useTimeZone();
  const zoneLabel = zone === "UTC" ? "UTC" : `${zoneName(zone)}, ${zone}`;
  const atError = error?.field === "at" ? error.message : undefined;
  return (
    <div className="group space-y-3 rounded-md border border-slate-200 p-3" data-testid="calling-choice">
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input type="checkbox" name="calling" value="1" defaultChecked={state.calling} className="calling-toggle mt-0.5 accent-blue-600" />
        <span>
          <span className="font-medium">Add calling times</span>
          <span className="block text-xs text-slate-500">
            The Good file gains each number&apos;s time zone, whether it may be called at the time below, the next lawful time (in UTC and on the number&apos;s
            own clock) and, when it may not, the rule that holds the call back (federal and state calling hours, Sunday and holiday bans).
          </span>
        </span>
      </label>
      <div>
        <label htmlFor="purge-at-local" className="block text-sm font-medium text-slate-700">
          Answer for (your time: {zoneLabel})
        </label>
        <input type="hidden" name="atZone" value={zone} />
        <input
          id="purge-at-local"
          name="atLocal"
          type="datetime-local"
          step={60}
          aria-invalid={atError ? true : undefined}
          aria-describedby={atError ? "purge-at-error" : "purge-at-help"}
          className={`${inputClass} max-w-xs`}
        />
        {atError ? (
          <p id="purge-at-error" className="mt-1 text-sm text-red-600" role="alert">
            {atError}
          </p>
        ) : (
          <p id="purge-at-help" className="mt-1 text-xs text-slate-500">
            Empty: when the purge starts. Plan tomorrow&apos;s shift by giving its start: the calling times and the exemption list are judged then (from now
            until the lists&apos; &quot;valid for calls until&quot;).
          </p>
        )}
      </div>
      <CallsChoice state={state} columns={columns} />
    </div>
  );
}

/**
 * What the calls are for (decision 191), shown while "Add calling times" is ticked (CSS alone: the same with
 * JavaScript off): your call history is counted (the Good file's calls_24h and calls_7d) and a number over a frequency
 * cap of the purpose is held back; for debt collection each row's debt id comes from a column of the file.
 */
function CallsChoice({ state, columns }: { state: WizardState; columns?: readonly string[] }) {
  return (
    <fieldset className="hidden space-y-2 group-has-[.calling-toggle:checked]:block" data-testid="calls-choice">
      <legend className="text-sm font-medium text-slate-700">The calls are for</legend>
      <p className="text-xs text-slate-500">
        Your Call History is counted: the Good file gains each number&apos;s calls in the last 24 hours and 7 days, and a number over a call limit is not
        callable until the limit lifts, its note naming the limit.
      </p>
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input type="radio" name="purpose" value="telemarketing" defaultChecked={state.purpose === "telemarketing"} className="mt-0.5 accent-blue-600" />
        <span>
          Telemarketing{" "}
          <span className="block text-xs text-slate-500">State limits: three calls in 24 hours on one subject (Florida, Maryland, Oklahoma, Oregon).</span>
        </span>
      </label>
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input type="radio" name="purpose" value="debt-collection" defaultChecked={state.purpose === "debt-collection"} className="mt-0.5 accent-blue-600" />
        <span>
          Debt collection{" "}
          <span className="block text-xs text-slate-500">
            Per debt: Regulation F (seven calls in seven days, none within seven days of a conversation), Massachusetts.
          </span>
        </span>
      </label>
      {columns && columns.length > 0 && (
        <div>
          <label htmlFor="purge-debt-column" className="block text-sm font-medium text-slate-700">
            Debt id column
          </label>
          <select
            id="purge-debt-column"
            name="debtColumn"
            defaultValue={columns.includes(state.debtColumn) ? state.debtColumn : ""}
            aria-describedby="purge-debt-column-help"
            className={`${inputClass} max-w-xs`}
          >
            <option value="">None</option>
            {columns.map((h) => (
              <option key={h} value={h}>
                {h}
              </option>
            ))}
          </select>
          <p id="purge-debt-column-help" className="mt-1 text-xs text-slate-500">
            Debt collection only: each row&apos;s debt. Without one, every call to the number counts against every debt.
          </p>
        </div>
      )}
    </fieldset>
  );
}
