/* Step 4 of the purge wizard: the numbers, typed in (manual) or as an uploaded file. */
import { Form, Link, useNavigate, useNavigation } from "@remix-run/react";
import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { CSV_MESSAGES, manualSchema, wizardHref, type WizardState } from "~/intake/purge-wizard";
import { formatBytes } from "~/utils/format";
import { buttonClass, inputClass, secondaryButtonClass } from "~/components/ui/form";
import { ProgressBar } from "~/components/ui/bar";
import { Hidden, PreviousRow, StartPurgingButton } from "./wizard-nav";
import { CallingChoice } from "./calling-choice";
import type { PurgeActionData, WizardData } from "./wizard-data";
import { ValidationAlert } from "./validation-alert";

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
  // an error of the time field is shown under it (CallingChoice), not again above the form
  const serverError = actionData?.intent === "manual" && !fieldError && actionData.error?.field !== "at" ? actionData.error : undefined;
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <Hidden state={state} omit={["mode", "upload", "column", "job", "calling", "purpose", "debtColumn"]} />
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
      {/* typed numbers get the same calling-times choice as a file's column step (#44) */}
      <CallingChoice state={state} error={actionData?.intent === "manual" ? actionData.error : undefined} />
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
          Uploaded: <span className="font-medium">{current.name}</span> ({formatBytes(current.bytes)}). Choose another file to replace it, or continue.
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

export function Step4({ wizard, actionData }: { wizard: WizardData; actionData?: PurgeActionData }) {
  return (
    <div>
      <h2 className="text-base font-semibold">Upload Data</h2>
      <p className="mb-3 text-sm text-slate-600">Upload a CSV file or type the numbers to purge.</p>
      <ModeToggle state={wizard.state} />
      {wizard.state.mode === "manual" ? <ManualForm wizard={wizard} actionData={actionData} /> : <CsvForm wizard={wizard} actionData={actionData} />}
    </div>
  );
}
