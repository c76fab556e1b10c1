import { inputClass } from "~/components/ui/form";
import { useTimeZone } from "~/utils/time-zone";
import { zoneName } from "~/utils/zone-names";
import type { WizardState } from "~/intake/purge-wizard";

/**
 * "Add calling times" and the time the purge answers for (#44: plan calling ahead), the same for a file's column step
 * and typed numbers: a date and time in the analyst's own time zone (named; UTC until the browser has said which),
 * empty meaning when the purge starts. It is the instant of the calling times and of the exemption list.
 */
export function CallingChoice({ state, error }: { state: WizardState; error?: { field?: "at"; message: string } }) {
  const zone = useTimeZone();
  const zoneLabel = zone === "UTC" ? "UTC" : `${zoneName(zone)}, ${zone}`;
  const atError = error?.field === "at" ? error.message : undefined;
  return (
    <div className="space-y-3 rounded-md border border-slate-200 p-3" data-testid="calling-choice">
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input type="checkbox" name="calling" value="1" defaultChecked={state.calling} className="mt-0.5 accent-blue-600" />
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
    </div>
  );
}
