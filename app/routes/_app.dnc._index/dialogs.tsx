import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useNavigate } from "@remix-run/react";
import { ListVersionHistory } from "~/components/proof/list-version-history";
import type { ListVersion } from "~/models/list-version.server";
import { REGISTRY_VALID_DAYS } from "scrub-service/domain";
import type { DncList } from "~/models/dnc.server";
import type { ListLoadItem } from "~/models/container.server";
import { formatDate, formatNumber } from "~/utils/format";
import type { LoadMode } from "~/components/lists/list-text";
import { browserHasFile, dncEditSchema, dncLoadSchema } from "~/components/lists/list-forms";
import { FieldErrors, FormErrors, inputClass } from "~/components/ui/form";
import { CardMenu, ProgressBar } from "~/components/lists/list-ui";
import { DialogButtons, ListDialog, ListUploadDialog, useListResult } from "~/components/lists/list-dialog";
import { LIST_TONE_CLASSES } from "~/components/lists/list-tones";
import { DateOnly } from "~/components/ui/date-time";
import { useTimeZone } from "~/utils/time-zone";

/** DNC Management's cards and dialogs (the dialog frame and buttons are the list pages' shared ones). */

export const DIALOGS = ["add", "remove", "replace", "changes", "edit"] as const;
export type DialogName = (typeof DIALOGS)[number];
type Mode = LoadMode;

const DIALOG_TITLES: Record<DialogName, string> = {
  add: "Add Numbers",
  remove: "Remove Numbers",
  replace: "Replace List",
  changes: "Apply FTC Change List",
  edit: "Edit DNC List",
};

function lastLoadText(load: ListLoadItem, timeZone: string): string {
  const when = formatDate(load.finishedAt ?? load.createdAt, timeZone);
  if (load.status === "failed") return `Last load failed (${when}).`;
  return `Last change ${when}: ${describeLoadText(load)}`;
}

function describeLoadText(l: ListLoadItem): string {
  const f = formatNumber;
  if (l.mode === "remove") return `${f(l.removed)} removed${l.invalid ? `, ${f(l.invalid)} invalid` : ""}.`;
  if (l.mode === "changes") return `change list: ${f(l.added)} added, ${f(l.removed)} removed${l.invalid ? `, ${f(l.invalid)} invalid` : ""}.`;
  return `${l.mode === "replace" ? "replaced, " : ""}${f(l.added)} added, ${f(l.alreadyPresent)} already present${l.invalid ? `, ${f(l.invalid)} invalid` : ""}.`;
}

export function DncCard({ list, load, versions }: { list: DncList; load?: ListLoadItem; versions: ListVersion[] }) {
  const style = LIST_TONE_CLASSES[list.tone];
  const timeZone = useTimeZone();
  const active = load && (load.status === "queued" || load.status === "running");
  const q = `type=${list.suppressionType}`;
  return (
    <li
      className={`rounded-xl border-2 bg-white p-5 shadow-sm ${(list.state && list.clock && CARD_TONES[list.clock.state]) || style.ring}`}
      data-testid={`dnc-card-${list.suppressionType}`}
    >
      <div className={`-mx-5 -mt-5 mb-4 h-1.5 rounded-t-lg ${style.bar}`} aria-hidden />
      <div className="flex items-start justify-between gap-2">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">{list.name}</h2>
          <p className="mt-1 flex flex-wrap items-center gap-1 text-xs text-slate-600" data-testid="checked-by">
            <span>Checked by:</span>
            {list.checkedBy.map((label) => (
              <span key={label} className={`inline-flex rounded-full px-2 py-0.5 font-medium ring-1 ${style.badge}`}>
                {label}
              </span>
            ))}
          </p>
        </div>
        <CardMenu
          label={`Actions for ${list.name}`}
          items={[
            { label: "Add Numbers", to: `/dnc?dialog=add&${q}` },
            { label: "Remove Numbers", to: `/dnc?dialog=remove&${q}` },
            { label: "Replace List", to: `/dnc?dialog=replace&${q}` },
            { label: "Apply FTC Change List", to: `/dnc?dialog=changes&${q}` },
            { label: "Edit DNC List", to: `/dnc?dialog=edit&${q}` },
          ]}
        />
      </div>
      <p className="mt-3 text-sm text-slate-600">{list.description || "No description"}</p>
      <dl className="mt-4 grid grid-cols-3 gap-2 text-sm">
        <div>
          <dt className="text-xs text-slate-500">Phone count</dt>
          <dd className="font-semibold text-slate-900" data-testid="phone-count">
            {formatNumber(list.phoneCount)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Created</dt>
          <dd className="font-medium text-slate-900">
            <DateOnly value={list.createdAt} />
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Updated</dt>
          <dd className="font-medium text-slate-900">
            <DateOnly value={list.updatedAt} />
          </dd>
        </div>
      </dl>
      {list.state && <StateListFacts list={list} />}
      <ListVersionHistory versions={versions} registry={list.takesRegistryDate} />
      {active ? (
        <Link to={`/dnc/loads/${load.id}`} className="mt-4 block rounded-md bg-slate-50 p-2 hover:bg-slate-100">
          <ProgressBar percent={load.percent} label={`Loading ${load.fileName}`} />
        </Link>
      ) : (
        load && (
          <p className={`mt-4 text-xs ${load.status === "failed" ? "text-red-700" : "text-slate-500"}`}>
            {lastLoadText(load, timeZone)}{" "}
            {load.status === "failed" && (
              <Link to={`/dnc/loads/${load.id}`} className="underline">
                Details
              </Link>
            )}
          </p>
        )
      )}
    </li>
  );
}

const RELEASE_TONES = { fresh: "", warning: "font-medium text-amber-800", stale: "font-medium text-red-700" } as const;
const CARD_TONES = { fresh: "", warning: "border-amber-400", stale: "border-red-500" } as const;

/**
 * A state list's cadence and freshness rule (with its source), and its loaded release at a glance: its age in days,
 * amber in the rule's last week and red past it (decision 160; the same clock as the purge screen's banner).
 */
function StateListFacts({ list }: { list: DncList }) {
  const rule = list.state!;
  const clock = list.clock;
  return (
    <div className="mt-3 space-y-1 text-xs text-slate-600" data-testid="state-list-facts">
      <p>
        {rule.freshness}{" "}
        <a href={rule.source} className="underline" rel="noreferrer noopener" target="_blank">
          Source
        </a>
      </p>
      {clock ? (
        <p className={RELEASE_TONES[clock.state]} data-testid="state-list-release" data-tone={clock.state}>
          Release of {formatDate(clock.registryDate, "UTC")} · {formatNumber(clock.ageDays)} {clock.ageDays === 1 ? "day" : "days"} old ·{" "}
          {clock.state === "stale" ? "out of date since" : "current until"} {formatDate(clock.validUntil, "UTC")} ({clock.validDays}-day rule)
          {clock.state === "warning" ? ": load the next release soon." : clock.state === "stale" ? ": load a newer release." : "."}
        </p>
      ) : (
        <p data-testid="state-list-release">Not loaded yet: purges do not check it.</p>
      )}
    </div>
  );
}

function TypeSelect({
  field,
  lists,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  field: any;
  lists: DncList[];
}) {
  const props = getSelectProps(field);
  const navigate = useNavigate();
  return (
    <div>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium text-slate-700">
        Suppression type
      </label>
      <select
        {...props}
        key={props.key}
        className={inputClass}
        // With JavaScript, switching the list shows that list's description (without it, the chosen list gets the text).
        onChange={(e) => navigate(`/dnc?dialog=edit&type=${e.currentTarget.value}`, { replace: true, preventScrollReset: true })}
      >
        {lists.map((l) => (
          <option key={l.suppressionType} value={String(l.suppressionType)}>
            {l.name}
          </option>
        ))}
      </select>
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function LoadDialog({
  mode,
  list,
  maxUploadText,
  maxUploadBytes,
  registryDateMax,
}: {
  mode: Mode;
  list: DncList;
  maxUploadText: string;
  maxUploadBytes: number;
  registryDateMax: string;
}) {
  const lastResult = useListResult("load");
  const [form, fields] = useForm({
    id: `dnc-${mode}-${list.suppressionType}`,
    lastResult,
    defaultValue: { method: "manual" },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: dncLoadSchema(browserHasFile, false) }),
  });
  const description =
    mode === "add"
      ? `Add numbers to ${list.name}.`
      : mode === "remove"
        ? `Remove numbers from ${list.name}.`
        : mode === "changes"
          ? `Apply an FTC change list to ${list.name}: its additions and deletions in one load.`
          : `Replace every number on ${list.name} with the numbers below.`;
  return (
    <ListUploadDialog
      title={DIALOG_TITLES[mode]}
      description={description}
      closeHref="/dnc"
      testId={`dnc-${mode}-dialog`}
      form={form}
      hidden={{ intent: "load", mode, type: String(list.suppressionType) }}
      limits={{ maxUploadText, maxUploadBytes }}
      numbers={{
        method: fields.method,
        numbers: fields.numbers,
        file: fields.file,
        fileHint:
          mode === "changes"
            ? "The FTC change list as downloaded (flat text, comma-delimited; .zip or .gz too). Typed numbers cannot carry add/delete indicators."
            : "A CSV with a 'Phone' column, one number per line, or the FTC's full list (area code, number); CSV, Excel (.xlsx), .zip or .gz.",
      }}
      after={list.takesRegistryDate && <RegistryDateField field={fields.registryDate} max={registryDateMax} list={list} />}
      submit={{ label: DIALOG_TITLES[mode], busyLabel: "Loading...", danger: mode !== "add" }}
    >
      {mode === "replace" && (
        <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          The {formatNumber(list.phoneCount)} numbers now on this list are removed and the new ones loaded. Scrubs keep using the current list until the
          replacement is complete.
        </p>
      )}
    </ListUploadDialog>
  );
}

/**
 * The day of the download this load comes from: it starts the 31-day clock of the federal registry (decision 110)
 * or a state list's own freshness rule (decision 160).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function RegistryDateField({ field, max, list }: { field: any; max: string; list: DncList }) {
  // decision 177: only a stated date (or a list's very first load, dated by its load time) moves the release
  const fallback = list.registryDate
    ? `Empty: the list keeps its release of ${formatDate(list.registryDate, "UTC")} (numbers added or removed without a date are no newer release).`
    : "Empty: the load time (this list's first load).";
  return (
    <div>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium text-slate-700">
        Registry date
      </label>
      <input
        id={field.id}
        name={field.name}
        type="date"
        max={max}
        defaultValue={typeof field.initialValue === "string" ? field.initialValue : ""}
        aria-invalid={field.errors ? true : undefined}
        aria-describedby={`${field.id}-hint${field.errors ? ` ${field.errorId}` : ""}`}
        className={`${inputClass} max-w-48`}
      />
      <p id={`${field.id}-hint`} className="mt-1 text-xs text-slate-500">
        {list.state?.country
          ? `The day this release of ${list.name} was downloaded from the list's operator. It starts the list's ${list.state.validDays}-day freshness rule. `
          : list.state
            ? `The day this release of the ${list.state.stateName} list was published or downloaded. It starts the list's ${list.state.validDays}-day freshness rule. `
            : `The day this file was downloaded from the National Do Not Call Registry. It starts the ${REGISTRY_VALID_DAYS}-day clock. `}
        {fallback}
      </p>
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function EditDialog({ lists, type }: { lists: DncList[]; type: number }) {
  const lastResult = useListResult("edit");
  const current = lists.find((l) => l.suppressionType === type);
  const [form, fields] = useForm({
    id: `dnc-edit-${type}`,
    lastResult,
    defaultValue: { type: String(type), description: current?.description ?? "" },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: dncEditSchema }),
  });
  return (
    <ListDialog title="Edit DNC List" closeHref="/dnc" testId="dnc-edit-dialog">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="edit" />
        <FormErrors errors={form.errors} />
        <TypeSelect field={fields.type} lists={lists} />
        <div>
          <label htmlFor={fields.description.id} className="mb-1 block text-sm font-medium text-slate-700">
            Description
          </label>
          <textarea
            id={fields.description.id}
            name={fields.description.name}
            rows={3}
            defaultValue={typeof fields.description.initialValue === "string" ? fields.description.initialValue : ""}
            className={inputClass}
          />
          <FieldErrors id={fields.description.errorId} errors={fields.description.errors} />
        </div>
        <DialogButtons cancelTo="/dnc" label="Save Changes" busyLabel="Saving..." />
      </Form>
    </ListDialog>
  );
}
