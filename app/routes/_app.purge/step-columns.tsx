/* Step 5 of the purge wizard (upload mode): the file's preview, its sheet and the phone column; starts the purge. */
import { Form, useNavigation, useSubmit } from "@remix-run/react";
import { wizardHref, type WizardState } from "~/intake/purge-wizard";
import { inputSummary } from "~/utils/format";
import { inputClass, secondaryButtonClass } from "~/components/ui/form";
import { Hidden, PreviousRow, StartPurgingButton } from "./wizard-nav";
import type { PurgeActionData, WizardData } from "./wizard-data";
import { ValidationAlert } from "./validation-alert";
import { CallingChoice } from "./calling-choice";

export function Step5({ wizard, actionData }: { wizard: WizardData; actionData?: PurgeActionData }) {
  const { state, preview } = wizard;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "start";
  const selected = state.column && preview?.headers.includes(state.column) ? state.column : (preview?.phoneColumn ?? "");
  const error = actionData?.intent === "start" ? actionData.error : undefined;
  const input = preview?.input ?? null;
  return (
    <div className="space-y-3">
      <h2 className="text-base font-semibold">Column Selection</h2>
      <p className="text-sm text-slate-600">
        Choose the column that holds the phone numbers in <span className="font-medium">{wizard.upload?.name}</span>.
      </p>
      {input && (
        <p className="text-sm text-slate-600" data-testid="detected-input">
          Read as: <span className="font-medium text-slate-800">{inputSummary(input)}</span>
        </p>
      )}
      {input && input.sheets.length > 1 && <SheetPicker state={state} sheets={input.sheets} current={input.sheet ?? input.sheets[0]} />}
      {wizard.previewError && <ValidationAlert message={wizard.previewError} />}
      <Form method="post" className="space-y-3" key={state.sheet}>
        <Hidden state={state} omit={["column", "job", "calling", "purpose", "debtColumn"]} />
        <input type="hidden" name="intent" value="start" />
        {error && error.field !== "at" && <ValidationAlert title={error.title} message={error.message} />}
        {preview && (
          <>
            <label htmlFor="purge-column" className="block text-sm font-medium text-slate-700">
              Phone number column
            </label>
            <select id="purge-column" name="column" defaultValue={selected} className={inputClass}>
              {preview.headers.map((h) => (
                <option key={h} value={h}>
                  {h}
                </option>
              ))}
            </select>
            {!preview.hasHeader && <p className="text-xs text-slate-500">The file has no header row: columns are numbered.</p>}
            <div className="overflow-x-auto rounded-md border border-slate-200">
              <table className="min-w-full divide-y divide-slate-200 text-xs" aria-label="File preview">
                <thead className="bg-slate-50">
                  <tr>
                    {preview.headers.map((h) => (
                      <th key={h} scope="col" className={`px-3 py-2 text-left font-semibold ${h === selected ? "text-blue-700" : "text-slate-600"}`}>
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {preview.rows.slice(0, 5).map((r, i) => (
                    <tr key={i}>
                      {preview.headers.map((h, j) => (
                        <td key={h} className="max-w-[12rem] truncate px-3 py-1.5 font-mono text-slate-700">
                          {r[j] ?? ""}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className="text-xs text-slate-500">
              The first rows of your file. Rows with invalid numbers are not dropped silently: they go to the Invalid file with a reason.
            </p>
            <CallingChoice state={state} error={error} columns={preview.hasHeader ? preview.headers : undefined} />
          </>
        )}
        <PreviousRow to={wizardHref(state, { step: 4, job: "" })}>
          <StartPurgingButton busy={busy} disabled={!preview} />
        </PreviousRow>
      </Form>
    </div>
  );
}

/**
 * A workbook with several sheets: which one to read. A GET form (the sheet is part of the wizard's URL), so it
 * works without JavaScript ("Show sheet"); with JavaScript choosing a sheet shows it at once. The phone column
 * is chosen again for the new sheet.
 */
function SheetPicker({ state, sheets, current }: { state: WizardState; sheets: string[]; current: string }) {
  const submit = useSubmit();
  return (
    <Form method="get" action="/purge" className="flex flex-wrap items-end gap-2" data-testid="sheet-picker">
      <input type="hidden" name="step" value="5" />
      <Hidden state={state} omit={["sheet", "column", "job"]} />
      <div className="min-w-0 flex-1">
        <label htmlFor="purge-sheet" className="block text-sm font-medium text-slate-700">
          Sheet
        </label>
        <select
          id="purge-sheet"
          name="sheet"
          key={current}
          defaultValue={current}
          className={inputClass}
          onChange={(e) => submit(e.currentTarget.form, { method: "get", action: "/purge" })}
        >
          {sheets.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className={secondaryButtonClass}>
        Show sheet
      </button>
    </Form>
  );
}
