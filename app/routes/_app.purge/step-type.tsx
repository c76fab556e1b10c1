/* Step 1 of the purge wizard: the suppression type (which lists the numbers are checked against). */
import { Form } from "@remix-run/react";
import { SUPPRESSION_TYPES } from "~/intake/purge-wizard";
import type { SuppressionTypeName } from "scrub-service/domain";
import { Hidden, NavButtons } from "./wizard-nav";
import type { WizardData } from "./wizard-data";

export function Step1({ wizard, onTypeChange }: { wizard: WizardData; onTypeChange: (type: SuppressionTypeName) => void }) {
  const { state } = wizard;
  return (
    <Form method="get" action="/purge">
      <Hidden state={state} omit={["type", "states", "job"]} />
      <fieldset>
        <legend className="text-base font-semibold">Suppression Type</legend>
        <p className="mb-3 text-sm text-slate-600">Choose which lists your numbers are checked against.</p>
        <div className="grid gap-3 sm:grid-cols-2">
          {SUPPRESSION_TYPES.map((t) => (
            <label
              key={t.value}
              className="flex cursor-pointer gap-3 rounded-lg border border-slate-200 p-4 hover:border-blue-300 has-[:checked]:border-blue-500 has-[:checked]:bg-blue-50"
            >
              <input
                type="radio"
                name="type"
                value={t.value}
                defaultChecked={state.type === t.value}
                onChange={(e) => e.currentTarget.checked && onTypeChange(t.value)}
                className="mt-1 h-4 w-4 accent-blue-600"
              />
              <span>
                <span className="block font-medium text-slate-900">{t.label}</span>
                <span className="block text-sm text-slate-600">{t.description}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {wizard.canFilterStates && (
        <details className="mt-5 rounded-lg border border-slate-200 p-4" open={state.states.length > 0}>
          <summary className="cursor-pointer text-sm font-semibold">State filter (optional){state.states.length ? `: ${state.states.join(", ")}` : ""}</summary>
          <p className="mt-2 text-sm text-slate-600">
            Keep only numbers whose area code belongs to the chosen US states. Leave all unchecked to keep every state.
          </p>
          <fieldset className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-3 lg:grid-cols-4">
            <legend className="sr-only">States</legend>
            {wizard.usStates.map((s) => (
              <label key={s.code} className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="state" value={s.code} defaultChecked={state.states.includes(s.code)} className="accent-blue-600" />
                {s.name}
              </label>
            ))}
          </fieldset>
        </details>
      )}
      <NavButtons state={state} />
    </Form>
  );
}
