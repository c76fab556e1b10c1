import { Link, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { FieldMetadata } from "@conform-to/react";
import { FieldErrors, inputClass } from "~/components/ui/form";
import { ProgressBar as Bar } from "~/components/ui/bar";
import { isActiveStatus, type ShownStatus } from "scrub-service/domain";
import { isInvalidNumbersMessage, MAX_MANUAL_NUMBERS, PHONE_ENTRY_MESSAGES } from "~/intake/typed-numbers";
import { formatNumber } from "~/utils/format";
import type { ListLoadItem } from "~/models/container.server";

/** A card's menu: a <details> disclosure of links (works without JavaScript). */
export function CardMenu({ label, items }: { label: string; items: Array<{ label: string; to: string }> }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    // With JavaScript: a click elsewhere or Escape closes the menu.
    function close(e: Event) {
      const el = ref.current;
      if (!el?.open) return;
      if (e instanceof KeyboardEvent ? e.key === "Escape" : !el.contains(e.target as Node)) el.removeAttribute("open");
    }
    document.addEventListener("click", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("click", close);
      document.removeEventListener("keydown", close);
    };
  }, []);
  return (
    <details ref={ref} className="relative">
      <summary
        aria-label={label}
        className="flex h-8 w-8 cursor-pointer list-none items-center justify-center rounded-md text-lg text-slate-500 hover:bg-slate-100 [&::-webkit-details-marker]:hidden"
      >
        ⋮
      </summary>
      <ul role="menu" className="absolute right-0 z-10 mt-1 w-44 rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg">
        {items.map((item) => (
          <li key={item.label} role="none">
            <Link
              role="menuitem"
              to={item.to}
              preventScrollReset
              onClick={(e) => e.currentTarget.closest("details")?.removeAttribute("open")}
              className="block px-3 py-2 text-slate-700 hover:bg-slate-50"
            >
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}

export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  const p = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div>
      <div className="mb-1 flex justify-between text-xs text-slate-600">
        <span>{label}</span>
        <span>{p}%</span>
      </div>
      <Bar percent={p} label={label} className="h-2 w-full" />
    </div>
  );
}

/** Re-runs the loaders every `ms` while `active` (JS progress polling; the no-JS page uses a meta refresh). */
export function usePolling(active: boolean, ms = 1000) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!active || state !== "idle") return;
    const t = setTimeout(revalidate, ms);
    return () => clearTimeout(t);
  }, [active, state, revalidate, ms]);
}

/** A meta refresh inside <noscript>: reloads the page when JavaScript is off (polling covers it otherwise). */
export function NoScriptRefresh({ seconds = 2 }: { seconds?: number }) {
  return (
    <noscript>
      <meta httpEquiv="refresh" content={String(seconds)} />
    </noscript>
  );
}

/** The spec's 'Invalid Phone Numbers' title above the message that lists them. */
export function NumbersErrors({ id, errors }: { id?: string; errors?: string[] }) {
  if (!errors?.length) return null;
  const invalid = errors.find(isInvalidNumbersMessage);
  if (invalid) {
    return (
      <div id={id} role="alert" className="mt-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
        <p className="font-semibold">{PHONE_ENTRY_MESSAGES.invalidTitle}</p>
        <p className="mt-1 break-words">{invalid}</p>
      </div>
    );
  }
  return <FieldErrors id={id} errors={errors} />;
}

/** The typed pane of a list input: its label, a monospace text area that keeps what was typed, a note, the errors. */
export function TypedEntryField({
  field,
  label,
  placeholder,
  note,
  errors,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  field: FieldMetadata<any, any, string[]>;
  label: string;
  placeholder: string;
  note: ReactNode;
  errors: ReactNode;
}) {
  return (
    <>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={field.id}
        name={field.name}
        defaultValue={typeof field.initialValue === "string" ? field.initialValue : ""}
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={field.errors?.length ? field.errorId : undefined}
        rows={5}
        placeholder={placeholder}
        className={`${inputClass} font-mono`}
      />
      <p className="mt-1 text-xs text-slate-500">{note}</p>
      {errors}
    </>
  );
}

/**
 * Manual entry or CSV upload. The radio pair switches the visible input with CSS alone (:has), so it works
 * without JavaScript; both inputs stay in the form and the action reads the one the method names.
 */
export function NumbersInput({
  method,
  numbers,
  file,
  maxUploadText,
  maxUploadBytes,
  onBusyChange,
  fileHint = "The CSV should have a single column named 'Phone' (or one number per line).",
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  method: FieldMetadata<any, any, string[]>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  numbers: FieldMetadata<any, any, string[]>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  file: FieldMetadata<any, any, string[]>;
  maxUploadText: string;
  maxUploadBytes: number;
  /** Told when a file upload starts and ends (the dialog disables its submit button meanwhile). */
  onBusyChange?: (busy: boolean) => void;
  fileHint?: string;
}) {
  return (
    <UploadMethodFields
      method={method}
      manual={
        <TypedEntryField
          field={numbers}
          label="Phone numbers"
          placeholder="2015552123, 3125552199, 4155552100"
          note={`Separate numbers with commas or new lines; each exactly 10 digits. Up to ${formatNumber(MAX_MANUAL_NUMBERS)} numbers.`}
          errors={<NumbersErrors id={numbers.errorId} errors={numbers.errors} />}
        />
      }
      csv={
        <CsvFileField
          file={file}
          maxUploadBytes={maxUploadBytes}
          maxUploadText={maxUploadText}
          onBusyChange={onBusyChange}
          hint={`${fileHint} Files of any length up to ${maxUploadText}.`}
        />
      }
    />
  );
}

/**
 * The "Manual | CSV" choice and the two panes it switches between: pure CSS (`:has`), so it works without
 * JavaScript; the pane not chosen is hidden, not removed, and the server reads the field of the chosen method.
 */
export function UploadMethodFields({
  method,
  manual,
  csv,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  method: FieldMetadata<any, any, string[]>;
  manual: ReactNode;
  csv: ReactNode;
}) {
  const initial = method.initialValue === "csv" ? "csv" : "manual";
  return (
    <fieldset className="space-y-3 [&:has(input[value=csv]:checked)_[data-method=manual]]:hidden [&:has(input[value=manual]:checked)_[data-method=csv]]:hidden">
      <legend className="mb-1 text-sm font-medium text-slate-700">Upload method</legend>
      <div className="inline-flex rounded-lg border border-slate-200 bg-slate-50 p-1 text-sm">
        {(["manual", "csv"] as const).map((m) => (
          <label
            key={m}
            className="cursor-pointer rounded-md px-3 py-1.5 text-slate-600 has-[:checked]:bg-white has-[:checked]:font-medium has-[:checked]:text-slate-900 has-[:checked]:shadow-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-300"
          >
            <input type="radio" name={method.name} value={m} defaultChecked={initial === m} className="sr-only" />
            {m === "manual" ? "Manual" : "CSV"}
          </label>
        ))}
      </div>
      <div data-method="manual">{manual}</div>
      <div data-method="csv">{csv}</div>
    </fieldset>
  );
}

/** A staged CSV file input with its label, a hint line and its errors. */
export function CsvFileField({
  file,
  maxUploadBytes,
  maxUploadText,
  onBusyChange,
  hint,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  file: FieldMetadata<any, any, string[]>;
  maxUploadBytes: number;
  maxUploadText: string;
  onBusyChange?: (busy: boolean) => void;
  hint: string;
}) {
  return (
    <>
      <label htmlFor={file.id} className="mb-1 block text-sm font-medium text-slate-700">
        CSV file
      </label>
      <StagedFileInput field={file} maxUploadBytes={maxUploadBytes} maxUploadText={maxUploadText} onBusyChange={onBusyChange} />
      <p className="mt-1 text-xs text-slate-500">{hint}</p>
      <FieldErrors id={file.errorId} errors={file.errors} />
    </>
  );
}

/** A list load as its progress card shows it (the model's row, less what the card does not show). */
export type LoadView = Omit<ListLoadItem, "listId" | "createdAt" | "finishedAt">;

const LOAD_STATUS_TEXT: Record<ShownStatus, string> = {
  queued: "Waiting to start…",
  running: "Loading…",
  retrying: "Interrupted; loading again from the start…",
  completed: "Finished.",
  failed: "Finished.",
};

const MODE_TEXT: Record<LoadView["mode"], string> = {
  add: "Adding numbers",
  remove: "Removing numbers",
  replace: "Replacing the list",
  changes: "Applying the FTC change list",
};

function bytesText(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

/** A list load in progress (or failed): progress bar from list_loads, refreshed with or without JavaScript. */
export function LoadProgress({
  load,
  listName,
  backHref,
  backLabel,
  failedTitle,
}: {
  load: LoadView;
  listName: string;
  backHref: string;
  backLabel: string;
  failedTitle: string;
}) {
  const running = isActiveStatus(load.status);
  usePolling(running, 1000);
  const rows = load.added + load.alreadyPresent + load.removed + load.invalid;
  return (
    <section className="mx-auto max-w-xl rounded-xl border border-slate-200 bg-white p-6 shadow-sm" data-testid="load-progress">
      {running && <NoScriptRefresh seconds={2} />}
      {load.status === "failed" ? (
        <div role="alert">
          <h1 className="text-lg font-semibold text-red-700">{failedTitle}</h1>
          <p className="mt-2 text-sm text-slate-700">{load.error || "The load stopped with an error."}</p>
          <p className="mt-1 text-sm text-slate-500">No numbers from a failed load were counted against your limits.</p>
        </div>
      ) : (
        <>
          <h1 className="text-lg font-semibold text-slate-900">
            {MODE_TEXT[load.mode]} · {listName}
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            {LOAD_STATUS_TEXT[load.status]} {load.fileName}
          </p>
          <div className="mt-5">
            <ProgressBar percent={load.percent} label={`${bytesText(load.bytesRead)} of ${bytesText(load.bytesTotal)}`} />
          </div>
          {rows === 0 ? (
            <p className="mt-4 text-sm text-slate-600">Counts of added, already present and invalid numbers follow when the file has been read.</p>
          ) : (
            <dl className="mt-5 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
              <div>
                <dt className="text-xs text-slate-500">Rows read</dt>
                <dd className="font-medium">{formatNumber(rows)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500">{load.mode === "remove" ? "Removed" : "Added"}</dt>
                <dd className="font-medium">{formatNumber(load.mode === "remove" ? load.removed : load.added)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500">Already present</dt>
                <dd className="font-medium">{formatNumber(load.alreadyPresent)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500">Invalid</dt>
                <dd className="font-medium">{formatNumber(load.invalid)}</dd>
              </div>
            </dl>
          )}
          {running && <p className="mt-4 text-xs text-slate-500">This page updates by itself; you can leave it, the load continues.</p>}
        </>
      )}
      <Link to={backHref} className="mt-6 inline-block text-sm font-medium text-blue-600 hover:underline">
        {backLabel}
      </Link>
    </section>
  );
}

type StagedState =
  | { status: "idle" }
  | { status: "uploading"; fileName: string; percent: number }
  | { status: "done"; fileName: string; token: string; bytes: number }
  | { status: "error"; message: string };

/**
 * A file input. Without JavaScript it is posted with the form. With JavaScript the chosen file is uploaded at
 * once to /resources/list-uploads with a progress bar; the form then posts its token (`uploadToken`) instead of
 * the file, so submitting is instant however large the file.
 */
export function StagedFileInput({
  field,
  maxUploadBytes,
  maxUploadText,
  onBusyChange,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  field: FieldMetadata<any, any, string[]>;
  maxUploadBytes: number;
  maxUploadText: string;
  onBusyChange?: (busy: boolean) => void;
}) {
  const [state, setState] = useState<StagedState>({ status: "idle" });
  const xhrRef = useRef<XMLHttpRequest | null>(null);
  useEffect(() => () => xhrRef.current?.abort(), []);
  useEffect(() => onBusyChange?.(state.status === "uploading"), [state.status, onBusyChange]);

  function onChange(e: React.ChangeEvent<HTMLInputElement>) {
    xhrRef.current?.abort();
    const f = e.target.files?.[0];
    if (!f || f.size === 0) {
      setState({ status: "idle" });
      return;
    }
    if (f.size > maxUploadBytes) {
      setState({
        status: "error",
        message: `File is too large. The limit is ${maxUploadText}.`,
      });
      return;
    }
    const body = new FormData();
    body.append("file", f);
    const xhr = new XMLHttpRequest();
    xhrRef.current = xhr;
    setState({ status: "uploading", fileName: f.name, percent: 0 });
    xhr.upload.onprogress = (ev) => {
      if (ev.lengthComputable)
        setState({
          status: "uploading",
          fileName: f.name,
          percent: (ev.loaded / ev.total) * 100,
        });
    };
    xhr.onload = () => {
      let json: {
        token?: string;
        fileName?: string;
        bytes?: number;
        error?: string;
      } = {};
      try {
        json = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: e.g. signed out */
      }
      if (xhr.status === 200 && json.token)
        setState({
          status: "done",
          fileName: json.fileName ?? f.name,
          token: json.token,
          bytes: json.bytes ?? f.size,
        });
      else
        setState({
          status: "error",
          message: json.error ?? "The upload failed. Please try again.",
        });
    };
    xhr.onerror = () =>
      setState({
        status: "error",
        message: "The upload failed. Please check your connection and try again.",
      });
    xhr.open("POST", "/resources/list-uploads");
    xhr.send(body);
  }

  return (
    <div>
      <input
        id={field.id}
        // Once staged, the file is not sent again: the token stands for it.
        name={state.status === "done" ? undefined : field.name}
        type="file"
        accept=".csv,.txt,.tsv,.xlsx,.gz,.zip,text/csv,text/plain,text/tab-separated-values,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/gzip,application/zip"
        onChange={onChange}
        aria-invalid={field.errors?.length || state.status === "error" ? true : undefined}
        aria-describedby={field.errors?.length ? field.errorId : undefined}
        className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-slate-200"
      />
      {state.status === "done" && <input type="hidden" name="uploadToken" value={state.token} />}
      {state.status === "uploading" && (
        <div className="mt-2" data-testid="upload-progress">
          <ProgressBar percent={state.percent} label={`Uploading ${state.fileName}`} />
        </div>
      )}
      {state.status === "done" && (
        <p className="mt-2 text-xs text-green-700" data-testid="upload-done">
          Uploaded {state.fileName} ({bytesText(state.bytes)}).
        </p>
      )}
      {state.status === "error" && (
        <p role="alert" className="mt-1 text-sm text-red-600">
          {state.message}
        </p>
      )}
    </div>
  );
}
