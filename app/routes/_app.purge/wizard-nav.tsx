import { Link } from "@remix-run/react";
import { hiddenFields, previousStep, type WizardState } from "~/intake/purge-wizard";
import { buttonClass, secondaryButtonClass } from "~/components/ui/form";

/** The wizard's state as hidden fields, so each step's GET form carries the earlier choices. */
export function Hidden({ state, omit }: { state: WizardState; omit: (keyof WizardState)[] }) {
  return (
    <>
      {hiddenFields(state, omit).map(([k, v], i) => (
        <input key={`${k}-${v}-${i}`} type="hidden" name={k} value={v} />
      ))}
    </>
  );
}

/** Next / Previous of the GET steps (1 to 3). */
export function NavButtons({ state, next = "Next", nextDisabled }: { state: WizardState; next?: string; nextDisabled?: boolean }) {
  return (
    // Next comes first in the DOM so pressing Enter moves forward; row-reverse puts Previous on the left.
    <div className="mt-6 flex flex-row-reverse items-center justify-between gap-3 border-t border-slate-100 pt-4">
      <button type="submit" name="step" value={state.step + 1} className={buttonClass} disabled={nextDisabled}>
        {next}
      </button>
      {state.step > 1 ? (
        <button type="submit" name="step" value={previousStep(state)} formNoValidate className={secondaryButtonClass}>
          Previous
        </button>
      ) : (
        <span />
      )}
    </div>
  );
}

/** A step's bottom row: a Previous link on the left, `children` on the right. */
export function PreviousRow({ to, wrap = false, children }: { to: string; wrap?: boolean; children: React.ReactNode }) {
  return (
    <div className={`mt-6 flex ${wrap ? "flex-wrap " : ""}items-center justify-between gap-3 border-t border-slate-100 pt-4`}>
      <Link to={to} className={secondaryButtonClass}>
        Previous
      </Link>
      {children}
    </div>
  );
}

/** The submit button that starts the purge (manual entry, or the CSV's column step). */
export function StartPurgingButton({ busy, disabled = false }: { busy: boolean; disabled?: boolean }) {
  return (
    <button type="submit" className={buttonClass} disabled={busy || disabled}>
      {busy ? "Starting..." : "Start Purging"}
    </button>
  );
}
