import { Form, Link, useNavigate, useNavigation, useSubmit } from "@remix-run/react";
import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { CallingTimes } from "~/components/purge/calling-times";
import { ExemptionCounts } from "~/components/purge/exemption-counts";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import {
  CSV_MESSAGES,
  manualSchema,
  previousStep,
  STEPS,
  SUPPRESSION_TYPES,
  wizardHref,
  type WizardState,
} from "~/intake/purge-wizard";
import { formatBytes, formatDate, formatNumber, formatRate, inputSummary, reasonLabel, SUPPRESSION_LABEL } from "~/utils/format";
import type { JobView } from "~/models/purge.server";
import { type SuppressionTypeName, isActiveStatus } from "scrub-service/domain";
import { buttonClass, inputClass, secondaryButtonClass } from "~/components/ui/form";
import { ProgressBar, StackedBar } from "~/components/ui/bar";
import { DownloadButtons } from "~/components/purge/downloads";
import { CertificateLinks, StaleDncBanner, ValidUntil } from "~/components/proof/certificate-links";
import { ReminderForm } from "~/components/proof/reminder-form";
import { Hidden, NavButtons, PreviousRow, StartPurgingButton } from "./wizard-nav";
import { OptionalSelectStep } from "./optional-select-step";

export interface PurgeActionData {
  intent: string;
  error?: { title: string; message: string };
  reply?: SubmissionResult<string[]>;
}

export interface WizardData {
  state: WizardState;
  maxUploadBytes: number;
  limitMessage: string;
  canFilterStates: boolean;
  usStates: { code: string; name: string }[];
  categoryName: string | null;
  containerName: string | null;
  exemptionListName: string | null;
  categories: { id: string; name: string }[];
  containers: { id: string; name: string; size: number; categoryId: string | null }[];
  exemptionLists: { id: string; name: string; size: number }[];
  upload: { id: string; name: string; bytes: number; manual: boolean } | null;
  manualText: string | null;
  submissionId: string;
  preview: {
    headers: string[];
    hasHeader: boolean;
    rows: string[][];
    phoneColumn: string | null;
    input: { format: string; encoding: string; delimiter: string; sheets: string[]; sheet: string | null } | null;
  } | null;
  previewError: string | null;
  job: JobView | null;
}

export function ValidationAlert({ title = "Validation Error", message }: { title?: string; message: string }) {
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-testid="purge-error">
      <p className="font-semibold">{title}</p>
      <p className="mt-0.5">{message}</p>
    </div>
  );
}

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

function Step1({ wizard, onTypeChange }: { wizard: WizardData; onTypeChange: (type: SuppressionTypeName) => void }) {
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
          <summary className="cursor-pointer text-sm font-semibold">
            State filter (optional){state.states.length ? `: ${state.states.join(", ")}` : ""}
          </summary>
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

function Step2({ wizard }: { wizard: WizardData }) {
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

function Step3({ wizard }: { wizard: WizardData }) {
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
        Optional: a number on the federal or a state DNC list stays good while an exemption applies (a purchase in the last 18 months, an
        inquiry in the last 3, fewer where a state says so, or written consent). Litigation and your container are never exempted.
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

function ModeToggle({ state }: { state: WizardState }) {
  const tab = (mode: "manual" | "csv", label: string) => (
    <Link
      to={wizardHref(state, { mode, job: "" })}
      replace
      preventScrollReset
      aria-current={state.mode === mode ? "page" : undefined}
      className={`rounded-md px-4 py-1.5 text-sm font-medium ${state.mode === mode ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900"}`}
    >
      {label}
    </Link>
  );
  return (
    <div className="mb-4 inline-flex rounded-lg bg-slate-100 p-1" role="group" aria-label="Upload method">
      {tab("csv", "Upload CSV")}
      {tab("manual", "Enter Manually")}
    </div>
  );
}

function ManualForm({ wizard, actionData }: { wizard: WizardData; actionData?: PurgeActionData }) {
  const { state } = wizard;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "manual";
  const [form, fields] = useForm({
    id: "purge-manual",
    lastResult: actionData?.intent === "manual" ? actionData.reply : undefined,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: manualSchema }),
  });
  const fieldError = fields.numbers.errors?.[0];
  const serverError = actionData?.intent === "manual" && !fieldError ? actionData.error : undefined;
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <Hidden state={state} omit={["mode", "upload", "column", "job"]} />
      <input type="hidden" name="mode" value="manual" />
      <input type="hidden" name="intent" value="manual" />
      <input type="hidden" name="submission" value={wizard.submissionId} />
      {fieldError && <ValidationAlert message={fieldError} />}
      {serverError && <ValidationAlert title={serverError.title} message={serverError.message} />}
      <label htmlFor={fields.numbers.id} className="block text-sm font-medium text-slate-700">
        Phone numbers
      </label>
      <textarea
        {...getTextareaProps(fields.numbers)}
        key={fields.numbers.key}
        defaultValue={wizard.manualText ?? undefined}
        rows={8}
        placeholder={"2025552101\n(310) 555-2199, 212.555.2147"}
        className={`${inputClass} font-mono`}
      />
      <p className="text-xs text-slate-500">One per line or separated by commas; 10 to 15 digits each (spaces, dashes and brackets are ignored).</p>
      <PreviousRow to={wizardHref(state, { step: 3, job: "" })}>
        <StartPurgingButton busy={busy} />
      </PreviousRow>
    </Form>
  );
}

function CsvForm({ wizard, actionData }: { wizard: WizardData; actionData?: PurgeActionData }) {
  const { state } = wizard;
  const navigation = useNavigation();
  const navigate = useNavigate();
  const [clientError, setClientError] = useState<{ title: string; message: string } | null>(null);
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null);
  const busy = progress !== null || (navigation.state !== "idle" && navigation.formData?.get("intent") === "upload");
  const error = clientError ?? (actionData?.intent === "upload" ? actionData.error : undefined);
  const current = wizard.upload && !wizard.upload.manual ? wizard.upload : null;

  /** With JavaScript a new file is sent with XMLHttpRequest to show upload progress (large files take a while). */
  function upload(form: HTMLFormElement) {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/purge/upload");
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => setProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    xhr.onload = () => {
      // Signed out meanwhile: the answer is the sign-in page.
      if (xhr.responseURL && new URL(xhr.responseURL).pathname === "/login") {
        window.location.assign(xhr.responseURL);
        return;
      }
      const body = xhr.response as { redirectTo?: string; error?: { title: string; message: string } } | null;
      if (xhr.status === 200 && body?.redirectTo) {
        navigate(body.redirectTo);
        setProgress(null);
        return;
      }
      setProgress(null);
      setClientError(body?.error ?? { title: "Validation Error", message: CSV_MESSAGES.unreadable });
    };
    xhr.onerror = () => {
      setProgress(null);
      setClientError({ title: "Upload Failed", message: "The upload was interrupted. Please check your connection and try again." });
    };
    setProgress({ loaded: 0, total: 0 });
    xhr.send(new FormData(form));
  }

  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className="space-y-3"
      onSubmit={(e) => {
        const input = e.currentTarget.elements.namedItem("file") as HTMLInputElement | null;
        const file = input?.files?.[0];
        if (!file && !current) {
          e.preventDefault();
          setClientError({ title: "Validation Error", message: CSV_MESSAGES.noFile });
        } else if (file && file.size > wizard.maxUploadBytes) {
          e.preventDefault();
          setClientError({ title: "Validation Error", message: wizard.limitMessage });
        } else if (file) {
          e.preventDefault();
          setClientError(null);
          upload(e.currentTarget);
        } else setClientError(null);
      }}
    >
      {/* The file goes last so the small fields are read before the file is streamed. */}
      <Hidden state={state} omit={["mode", "column", "job"]} />
      <input type="hidden" name="mode" value="csv" />
      <input type="hidden" name="intent" value="upload" />
      {error && <ValidationAlert title={error.title} message={error.message} />}
      {current && (
        <p className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900" data-testid="current-upload">
          Uploaded: <span className="font-medium">{current.name}</span> ({formatBytes(current.bytes)}). Choose another file to replace it, or
          continue.
        </p>
      )}
      <label htmlFor="purge-file" className="block text-sm font-medium text-slate-700">
        CSV file
      </label>
      <input
        id="purge-file"
        name="file"
        type="file"
        accept=".csv,.txt,.tsv,.xlsx,.gz,.zip,text/csv,text/plain,text/tab-separated-values,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/gzip,application/zip"
        className="block w-full text-sm text-slate-700 file:mr-4 file:rounded-md file:border-0 file:bg-blue-50 file:px-4 file:py-2 file:text-sm file:font-medium file:text-blue-700 hover:file:bg-blue-100"
        onChange={() => setClientError(null)}
      />
      {progress && (
        <div className="space-y-1" data-testid="upload-progress">
          <ProgressBar percent={progress.total ? (progress.loaded / progress.total) * 100 : 0} label="Upload progress" />
          <p className="text-xs text-slate-600 tabular-nums">
            Uploading... {formatBytes(progress.loaded)}
            {progress.total ? ` of ${formatBytes(progress.total)} (${Math.floor((progress.loaded / progress.total) * 100)}%)` : ""}
          </p>
        </div>
      )}
      <p className="text-xs text-slate-500">
        A CSV or text file (any encoding), an Excel workbook (.xlsx), or either one as .zip or .gz; you choose the phone column next. Up to{" "}
        {formatBytes(wizard.maxUploadBytes)}.
      </p>
      <div className="mt-6 flex items-center justify-between gap-3 border-t border-slate-100 pt-4">
        <Link to={wizardHref(state, { step: 3, job: "" })} className={secondaryButtonClass}>
          Previous
        </Link>
        <button type="submit" className={buttonClass} disabled={busy}>
          {busy ? "Uploading..." : "Next"}
        </button>
      </div>
    </Form>
  );
}

function Step4({ wizard, actionData }: { wizard: WizardData; actionData?: PurgeActionData }) {
  return (
    <div>
      <h2 className="text-base font-semibold">Upload Data</h2>
      <p className="mb-3 text-sm text-slate-600">Upload a CSV file or type the numbers to purge.</p>
      <ModeToggle state={wizard.state} />
      {wizard.state.mode === "manual" ? <ManualForm wizard={wizard} actionData={actionData} /> : <CsvForm wizard={wizard} actionData={actionData} />}
    </div>
  );
}

function Step5({ wizard, actionData }: { wizard: WizardData; actionData?: PurgeActionData }) {
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
        <Hidden state={state} omit={["column", "job", "calling"]} />
        <input type="hidden" name="intent" value="start" />
        {error && <ValidationAlert title={error.title} message={error.message} />}
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
            <p className="text-xs text-slate-500">The first rows of your file. Rows with invalid numbers are not dropped silently: they go to the Invalid file with a reason.</p>
            <label className="flex items-start gap-2 rounded-md border border-slate-200 p-3 text-sm text-slate-700">
              <input type="checkbox" name="calling" value="1" defaultChecked={state.calling} className="mt-0.5 accent-blue-600" />
              <span>
                <span className="font-medium">Add calling times</span>
                <span className="block text-xs text-slate-500">
                  The Good file gains each number's time zone, whether it may be called when the purge starts, and the next lawful time (federal
                  and state calling hours, Sunday and holiday bans).
                </span>
              </span>
            </label>
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

export function Processing({ job }: { job: JobView }) {
  return (
    <div className="py-6 text-center" data-testid="processing">
      {/* Without JavaScript the page reloads itself every 2 seconds until the job is done. */}
      <noscript>
        <meta httpEquiv="refresh" content="2" />
      </noscript>
      <h2 className="text-lg font-semibold">Processing Data</h2>
      <p className="mt-1 text-sm text-slate-600">
        {job.status === "queued"
          ? "Waiting for a free worker..."
          : job.status === "retrying"
            ? `Retrying ${job.fileName} from the start (the scrub service running it stopped)...`
            : `Purging ${job.fileName}...`}
      </p>
      <div className="mx-auto mt-5 max-w-md">
        <ProgressBar percent={job.percent} label="Purge progress" />
        <p className="mt-2 text-sm text-slate-700 tabular-nums" data-testid="progress-text">
          {formatNumber(job.rowsDone)} rows processed · {job.percent}%
        </p>
      </div>
      <p className="mt-4 text-xs text-slate-500">You can leave this page: the purge continues and appears in your history.</p>
    </div>
  );
}

/** Each list the purge checked, with the version and release it used (the certificate states the same). */
function ListsChecked({ lists }: { lists: JobView["lists"] }) {
  return (
    <div className="mt-4">
      <h3 className="mb-2 text-sm font-semibold">Lists checked</h3>
      <ul className="space-y-1 text-sm text-slate-700" aria-label="Lists checked" data-testid="lists-checked">
        {lists.map((l) => (
          <li key={`${l.kind}-${l.name}`} className="flex flex-wrap gap-x-2">
            <span className="font-medium">{l.name}</span>
            <span className="text-slate-500 tabular-nums">
              version {l.version} · {formatNumber(l.count)} numbers
              {l.registryDate ? ` · release of ${formatDate(l.registryDate, "UTC")}` : ""}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Results({ job }: { job: JobView }) {
  const total = job.good + job.bad + job.invalid;
  const parts = [
    { key: "good", label: "Good", value: job.good, fill: "fill-green-500", text: "text-green-700" },
    { key: "bad", label: "Bad", value: job.bad, fill: "fill-red-500", text: "text-red-700" },
    { key: "invalid", label: "Invalid", value: job.invalid, fill: "fill-amber-500", text: "text-amber-700" },
  ];
  const reasons = Object.entries(job.reasons).filter(([, v]) => v > 0);
  return (
    <div data-testid="results">
      <StaleDncBanner dncAgeDays={job.dncAgeDays} />
      <h2 className="text-lg font-semibold">Purge complete</h2>
      <p className="text-sm text-slate-600">
        {job.fileName}: {formatNumber(total)} rows processed, {formatRate(total ? job.good / total : 0)} clean.
      </p>
      <div className="mt-4 grid gap-3 sm:grid-cols-3">
        {parts.map((p) => (
          <div key={p.key} className="rounded-lg border border-slate-200 p-4" data-testid={`count-${p.key}`}>
            <p className={`text-sm font-medium ${p.text}`}>{p.label} numbers</p>
            <p className="text-2xl font-semibold tabular-nums" data-testid={`count-${p.key}-value`}>
              {formatNumber(p.value)}
            </p>
            <p className="text-xs text-slate-500">{formatRate(total ? p.value / total : 0)} of rows</p>
          </div>
        ))}
      </div>
      {total > 0 && (
        <StackedBar
          className="mt-4 h-3 w-full"
          track="bg-slate-100"
          segments={parts.map((p) => ({ key: p.key, percent: (p.value / total) * 100, fill: p.fill }))}
        />
      )}
      {job.calling && <CallingTimes calling={job.calling} />}
      {job.exemptions && <ExemptionCounts exemptions={job.exemptions} />}
      {reasons.length > 0 && (
        <table className="mt-4 min-w-[16rem] text-sm" aria-label="Reasons">
          <thead>
            <tr className="text-left text-xs tracking-wide text-slate-500 uppercase">
              <th className="py-1 pr-6">Reason</th>
              <th className="py-1 text-right">Rows</th>
            </tr>
          </thead>
          <tbody>
            {reasons.map(([k, v]) => (
              <tr key={k} className="border-t border-slate-100">
                <td className="py-1 pr-6">{reasonLabel(k)}</td>
                <td className="py-1 text-right tabular-nums">{formatNumber(v)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {job.lists.length > 0 && <ListsChecked lists={job.lists} />}
      <h3 className="mt-6 mb-2 text-sm font-semibold">Download results</h3>
      {job.files.length ? <DownloadButtons files={job.files} /> : <p className="text-sm text-slate-500">No downloadable results</p>}
      {job.status === "completed" ? (
        <div className="mt-4 space-y-3">
          <ValidUntil validUntil={job.validUntil} dncAgeDays={job.dncAgeDays} />
          <ReminderForm jobId={job.id} reminder={job.reminder} redirectTo={`/purge?step=6&job=${job.id}`} />
          <CertificateLinks jobId={job.id} />
        </div>
      ) : null}
    </div>
  );
}

function Step6({ wizard }: { wizard: WizardData }) {
  const { state, job } = wizard;
  if (!job) return null;
  const running = isActiveStatus(job.status);
  return (
    <div>
      {running && <Processing job={job} />}
      {job.status === "failed" && (
        <ValidationAlert title="Failed to process purge." message={job.error ?? "The purge could not be completed. Please try again."} />
      )}
      {job.status === "completed" && <Results job={job} />}
      <PreviousRow to={wizardHref(state, { step: previousStep(state), job: "" })} wrap>
        <div className="flex flex-wrap gap-2 whitespace-nowrap">
          <Link to="/history" className={secondaryButtonClass}>
            View History
          </Link>
          <Link to="/purge" className={buttonClass}>
            Start New Purge
          </Link>
        </div>
      </PreviousRow>
    </div>
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
