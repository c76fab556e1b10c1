/* Step 2 of the purge wizard: an optional category to file the purge under. */
import { OptionalSelectStep } from "./optional-select-step";
import type { WizardData } from "./wizard-data";

export function Step2({ wizard }: { wizard: WizardData }) {
  const { state } = wizard;
  return (
    <OptionalSelectStep
      state={state}
      name="category"
      id="purge-category"
      label="Choose Category"
      hint="Optional: file this purge under one of your categories."
      noneLabel="No category"
      emptyNote={
        wizard.categories.length === 0 ? { text: "You have no categories yet.", to: "/containers?dialog=create-category", linkLabel: "Create Category" } : null
      }
    >
      {wizard.categories.map((c) => (
        <option key={c.id} value={c.id}>
          {c.name}
        </option>
      ))}
    </OptionalSelectStep>
  );
}
