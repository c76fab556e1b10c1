import { useForm, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Link } from "@remix-run/react";
import { FieldErrors, secondaryButtonClass, TextField } from "~/components/ui/form";
import { CardMenu, CsvFileField, TypedEntryField, UploadMethodFields } from "~/components/lists/list-ui";
import { DescriptionField, ListUploadDialog, useListResult, type UploadLimits } from "~/components/lists/list-dialog";
import { DateOnly } from "~/components/ui/date-time";
import { formatNumber } from "~/utils/format";
import { browserHasFile } from "~/components/lists/list-forms";
import { createExemptionsSchema, loadExemptionsSchema } from "./exemption-forms";

/*
 * The Exemption Lists page's cards (decision 161; their own page since #44): a customer's established business relationships
 * and written consents, one card per list, and the dialogs that create a list and load rows into it (typed or a
 * CSV), all plain forms behind `?dialog=` so they work with JavaScript off.
 */

export interface ExemptionListView {
  id: number;
  name: string;
  description: string;
  size: number;
  version: number;
  sha256: string | null;
  updatedAt: string;
}

/** Exemption records the account's lists hold in all, against its plan's limit (null: no limit; decision 176). */
export interface ExemptionUsage {
  held: number;
  limit: number | null;
}

const ROWS_PLACEHOLDER = "2125552345,purchase,2025-03-01\n3055552101,inquiry,2026-10-02\n4155552199,consent,2024-06-15";
const ROWS_HINT = "One row per number: phone,basis,date. Basis purchase, inquiry or consent; the date as YYYY-MM-DD, not in the future.";

export function ExemptionListsSection({ lists, usage }: { lists: ExemptionListView[]; usage: ExemptionUsage | null }) {
  return (
    <section aria-label="Exemption lists" data-testid="exemption-lists">
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm text-slate-600">
            Customers you may call although they are on a do-not-call registry: a purchase in the last 18 months, an inquiry in the last 3 (fewer where a
            state's list says so), or written consent. Choose a list in the purge wizard's container step. Litigation and your containers are never exempted.
          </p>
          {usage && (
            <p className="mt-1 text-sm text-slate-700" data-testid="exemption-usage">
              {usage.limit === null
                ? `${formatNumber(usage.held)} exemption records held (no plan limit).`
                : `${formatNumber(usage.held)} of ${formatNumber(usage.limit)} exemption records held (your plan's limit across all lists).`}
            </p>
          )}
        </div>
        <Link to="/exemption-lists?dialog=create-exemptions" preventScrollReset className={secondaryButtonClass}>
          Create Exemption List
        </Link>
      </div>
      {lists.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white py-8 text-center text-sm text-slate-500">No exemption lists yet.</p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Exemption lists">
          {lists.map((l) => (
            <li key={l.id} className="flex min-w-0 flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="exemption-card">
              <div className="flex items-start justify-between gap-2">
                <h3 className="min-w-0 truncate text-base font-semibold text-slate-900">
                  <Link to={`/exemption-lists/${l.id}`} className="hover:text-blue-700 hover:underline">
                    {l.name}
                  </Link>
                </h3>
                <CardMenu
                  label={`Actions for ${l.name}`}
                  items={[
                    { label: "View Rows", to: `/exemption-lists/${l.id}` },
                    { label: "Load Rows", to: `/exemption-lists?dialog=load-exemptions&id=${l.id}` },
                    { label: "Delete List", to: `/exemption-lists/${l.id}?dialog=delete` },
                  ]}
                />
              </div>
              <p className="mt-2 line-clamp-2 text-sm text-slate-600">{l.description || "No description"}</p>
              <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
                <div>
                  <dt className="text-xs text-slate-500">Numbers</dt>
                  <dd className="font-medium text-slate-900" data-testid="exemption-size">
                    {formatNumber(l.size)}
                  </dd>
                </div>
                <div>
                  <dt className="text-xs text-slate-500">Version</dt>
                  <dd className="font-medium text-slate-900">
                    {l.version} · <DateOnly value={l.updatedAt} />
                  </dd>
                </div>
                {l.sha256 && (
                  <div className="col-span-2">
                    <dt className="text-xs text-slate-500">SHA-256</dt>
                    <dd className="truncate font-mono text-xs text-slate-700" title={l.sha256}>
                      {l.sha256}
                    </dd>
                  </div>
                )}
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RowsInput({
  fields,
  limits,
  onBusyChange,
}: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  fields: { method: FieldMetadata<any, any, string[]>; rows: FieldMetadata<any, any, string[]>; file: FieldMetadata<any, any, string[]> };
  limits: UploadLimits;
  onBusyChange: (busy: boolean) => void;
}) {
  const { method, rows, file } = fields;
  const { maxUploadText, maxUploadBytes } = limits;
  return (
    <UploadMethodFields
      method={method}
      manual={
        <TypedEntryField
          field={rows}
          label="Exemption rows"
          placeholder={ROWS_PLACEHOLDER}
          note={ROWS_HINT}
          errors={<FieldErrors id={rows.errorId} errors={rows.errors} />}
        />
      }
      csv={
        <CsvFileField
          file={file}
          maxUploadBytes={maxUploadBytes}
          maxUploadText={maxUploadText}
          onBusyChange={onBusyChange}
          hint={`Columns phone,basis,date (a header row is optional). ${ROWS_HINT}`}
        />
      }
    />
  );
}

export function CreateExemptionsDialog({ maxUploadText, maxUploadBytes }: { maxUploadText: string; maxUploadBytes: number }) {
  const lastResult = useListResult("create-exemptions");
  const [form, fields] = useForm({
    id: "create-exemptions",
    lastResult,
    defaultValue: { method: "manual" },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createExemptionsSchema(browserHasFile) }),
  });
  return (
    <ListUploadDialog
      title="Create Exemption List"
      description="Numbers with a business relationship or written consent: good in purges while their exemption lasts."
      closeHref="/exemption-lists"
      testId="create-exemptions-dialog"
      form={form}
      hidden={{ intent: "create-exemptions" }}
      limits={{ maxUploadText, maxUploadBytes }}
      input={(onBusyChange) => <RowsInput fields={fields} limits={{ maxUploadText, maxUploadBytes }} onBusyChange={onBusyChange} />}
      submit={{ label: "Create Exemption List", busyLabel: "Saving..." }}
    >
      <TextField label="Exemption list name" field={fields.name} />
      <DescriptionField field={fields.description} />
    </ListUploadDialog>
  );
}

export function LoadExemptionsDialog({ list, maxUploadText, maxUploadBytes }: { list: ExemptionListView; maxUploadText: string; maxUploadBytes: number }) {
  const lastResult = useListResult("load-exemptions");
  const [form, fields] = useForm({
    id: `load-exemptions-${list.id}`,
    lastResult,
    defaultValue: { method: "manual", mode: "add" },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loadExemptionsSchema(browserHasFile) }),
  });
  return (
    <ListUploadDialog
      title="Load Exemption Rows"
      description={`Rows for ${list.name}.`}
      closeHref="/exemption-lists"
      testId="load-exemptions-dialog"
      form={form}
      hidden={{ intent: "load-exemptions", id: list.id }}
      limits={{ maxUploadText, maxUploadBytes }}
      input={(onBusyChange) => <RowsInput fields={fields} limits={{ maxUploadText, maxUploadBytes }} onBusyChange={onBusyChange} />}
      submit={{ label: "Load Rows", busyLabel: "Saving..." }}
    >
      <fieldset>
        <legend className="mb-1 text-sm font-medium text-slate-700">Mode</legend>
        <div className="space-y-1 text-sm">
          <label className="flex items-start gap-2">
            <input type="radio" name={fields.mode.name} value="add" defaultChecked className="mt-0.5 accent-blue-600" />
            <span>Add: new numbers join the list; a number already on it keeps its basis and the later date.</span>
          </label>
          <label className="flex items-start gap-2">
            <input type="radio" name={fields.mode.name} value="replace" className="mt-0.5 accent-blue-600" />
            <span>Replace: these rows become the whole list.</span>
          </label>
        </div>
      </fieldset>
    </ListUploadDialog>
  );
}
