/* The purge wizard: its progress bar, the current step (one module per step) and the choices so far. */
import { useState } from "react";
import { STEPS, type WizardState } from "~/intake/purge-wizard";
import { SUPPRESSION_LABEL } from "~/utils/format";
import type { SuppressionTypeName } from "scrub-service/domain";
import { ProgressBar } from "~/components/ui/bar";
import type { PurgeActionData, WizardData } from "./wizard-data";
import { ValidationAlert } from "./validation-alert";
import { Step1 } from "./step-type";
import { Step2 } from "./step-category";
import { Step3 } from "./step-container";
import { Step4 } from "./step-upload";
import { Step5 } from "./step-columns";
import { Step6 } from "./step-results";

function StepProgress({ step, mode }: { step: number; mode: WizardState["mode"] }) {
  const percent = ((step - 1) / (STEPS.length - 1)) * 100;
  return (
    <div className="mb-6">
      <div className="mb-2 flex items-center justify-between text-sm">
        <span className="font-medium text-slate-900">
          Step {step} of {STEPS.length}: {STEPS[step - 1].label}
        </span>
        <span className="text-slate-500">{Math.round(percent)}% complete</span>
      </div>
      <ProgressBar percent={percent} label="Wizard progress" />
      <ol className="mt-3 hidden grid-cols-6 gap-2 text-xs md:grid">
        {STEPS.map((s) => {
          const skipped = s.n === 5 && mode === "manual";
          const done = s.n < step;
          const current = s.n === step;
          return (
            <li
              key={s.n}
              aria-current={current ? "step" : undefined}
              className={`flex items-center gap-1.5 ${current ? "font-semibold text-blue-700" : done ? "text-slate-700" : "text-slate-400"} ${
                skipped ? "line-through" : ""
              }`}
            >
              <span
                className={`flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-[10px] ${
                  current ? "bg-blue-600 text-white" : done ? "bg-blue-100 text-blue-700" : "bg-slate-100 text-slate-500"
                }`}
              >
                {done ? "✓" : s.n}
              </span>
              {s.label}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** `type` is the suppression type chosen on the page right now (JS on, before Next); the URL's otherwise. */
function Summary({ wizard, type }: { wizard: WizardData; type: SuppressionTypeName }) {
  const { state } = wizard;
  const rows: [string, string][] = [
    ["Suppression type", SUPPRESSION_LABEL[type]],
    ["Category", wizard.categoryName ?? "None"],
    ["Container", wizard.containerName ?? "None"],
    ["Exemptions", wizard.exemptionListName ?? "None"],
  ];
  if (wizard.canFilterStates) rows.push(["State filter", state.states.length ? state.states.join(", ") : "All states"]);
  if (state.step >= 4) rows.push(["Input", state.mode === "manual" ? "Manual entry" : (wizard.upload?.name ?? "CSV file")]);
  if (state.step >= 5 && state.mode === "csv" && state.column) rows.push(["Phone column", state.column]);
  return (
    <aside className="self-start rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm">
      <h2 className="mb-2 font-semibold">Your choices</h2>
      <dl className="space-y-2">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt className="text-xs text-slate-500">{k}</dt>
            <dd className="font-medium break-words text-slate-900" data-testid={`choice-${k.toLowerCase().replace(/ /g, "-")}`} aria-live="polite">
              {v}
            </dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}

export function PurgeWizard({ wizard, actionData }: { wizard: WizardData; actionData?: PurgeActionData }) {
  const { state } = wizard;
  // The type picked on step 1 before Next, for "Your choices"; it resets whenever the URL's step or type changes.
  const urlChoice = `${state.step}:${state.type}`;
  const [picked, setPicked] = useState<{ urlChoice: string; type: SuppressionTypeName } | null>(null);
  const summaryType = picked && picked.urlChoice === urlChoice ? picked.type : state.type;
  const generalError = actionData?.error && !["manual", "upload", "start"].includes(actionData.intent) ? actionData.error : undefined;
  return (
    <>
      <StepProgress step={state.step} mode={state.mode} />
      {/* minmax(0, 1fr) and min-w-0: a grid track never grows to a wide preview table (which scrolls inside its own box) */}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_16rem]">
        <section className="min-w-0 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          {generalError && (
            <div className="mb-4">
              <ValidationAlert title={generalError.title} message={generalError.message} />
            </div>
          )}
          {state.step === 1 && <Step1 wizard={wizard} onTypeChange={(type) => setPicked({ urlChoice, type })} />}
          {state.step === 2 && <Step2 wizard={wizard} />}
          {state.step === 3 && <Step3 wizard={wizard} />}
          {state.step === 4 && <Step4 wizard={wizard} actionData={actionData} />}
          {state.step === 5 && <Step5 wizard={wizard} actionData={actionData} />}
          {state.step === 6 && <Step6 wizard={wizard} />}
        </section>
        <Summary wizard={wizard} type={summaryType} />
      </div>
    </>
  );
}
