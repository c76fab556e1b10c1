/* Step 3 of the purge wizard: an optional container whose numbers are suppressed too, and an exemption list. */
import { Link } from "@remix-run/react";
import { formatNumber } from "~/utils/format";
import { inputClass } from "~/components/ui/form";
import { OptionalSelectStep } from "./optional-select-step";
import type { WizardData } from "./wizard-data";

export function Step3({ wizard }: { wizard: WizardData }) {
  const { state } = wizard;
  const names = new Map(wizard.categories.map((c) => [c.id, c.name]));
  // Containers of the category chosen in step 2 come first.
  const inCategory = wizard.containers.filter((c) => c.categoryId === state.category);
  const others = wizard.containers.filter((c) => c.categoryId !== state.category);
  const option = (c: WizardData["containers"][number]) => (
    <option key={c.id} value={c.id}>
      {c.name} ({formatNumber(c.size)} numbers{c.categoryId && names.get(c.categoryId) ? ` · ${names.get(c.categoryId)}` : ""})
    </option>
  );
  return (
    <OptionalSelectStep
      state={state}
      name="container"
      id="purge-container"
      label="Select Container"
      hint="Optional: numbers stored in this container are suppressed too."
      noneLabel="No container"
      emptyNote={
        wizard.containers.length === 0
          ? { text: "You have no containers yet.", to: "/containers?dialog=create-container", linkLabel: "Create Container" }
          : null
      }
      extra={{ name: "exemptions", node: <ExemptionListSelect wizard={wizard} /> }}
    >
      {state.category && inCategory.length > 0 ? (
        <>
          <optgroup label={`In ${wizard.categoryName ?? "the chosen category"}`}>{inCategory.map(option)}</optgroup>
          {others.length > 0 && <optgroup label="Other containers">{others.map(option)}</optgroup>}
        </>
      ) : (
        wizard.containers.map(option)
      )}
    </OptionalSelectStep>
  );
}

/** The container step's second choice: an exemption list whose records let registry-list numbers through (decision 161). */
function ExemptionListSelect({ wizard }: { wizard: WizardData }) {
  return (
    <div className="mt-5">
      <label htmlFor="purge-exemptions" className="text-base font-semibold">
        Exemption list
      </label>
      <p className="mb-3 text-sm text-slate-600">
        Optional: a number on the federal or a state DNC list stays good while an exemption applies (a purchase in the last 18 months, an inquiry in the last 3,
        fewer where a state says so, or written consent). Litigation and your container are never exempted.
      </p>
      <select id="purge-exemptions" name="exemptions" defaultValue={wizard.state.exemptions} className={inputClass}>
        <option value="">No exemptions</option>
        {wizard.exemptionLists.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name} ({formatNumber(l.size)} numbers)
          </option>
        ))}
      </select>
      {wizard.exemptionLists.length === 0 && (
        <p className="mt-2 text-sm text-slate-500">
          You have no exemption lists yet.{" "}
          <Link to="/containers?dialog=create-exemptions" className="text-blue-600 hover:underline">
            Create Exemption List
          </Link>
        </p>
      )}
    </div>
  );
}
