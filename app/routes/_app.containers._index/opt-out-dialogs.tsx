import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import { HONOUR_BUSINESS_DAYS, HONOUR_CALENDAR_DAYS_CANADA, MAX_OPT_OUT_WORDS, MAX_OPT_OUTS_PER_REQUEST, OPT_OUT_CHANNELS } from "scrub-service/domain";
import { FieldErrors, FormErrors, inputClass, TextField } from "~/components/ui/form";
import { DialogButtons, ListDialog, useListResult } from "~/components/lists/list-dialog";
import { DateTime } from "~/components/ui/date-time";
import { useTimeZone } from "~/utils/time-zone";
import { zoneName } from "~/utils/zone-names";
import { CHANNEL_LABELS, importOptOutsSchema, recordOptOutSchema } from "./opt-out-forms";

/** The containers screen's opt-out dialogs and list (issue #47, decision 195); JS on and off alike (plain forms). */

const LEAD =
  "The number goes on your internal do-not-call list at once: every purge and lookup checks it, whatever container is chosen, and no " +
  "exemption clears it (its consent is revoked from the time received).";

export function RecordOptOutDialog() {
  const lastResult = useListResult("record-opt-out");
  const zone = useTimeZone();
  const zoneLabel = zone === "UTC" ? "UTC" : `${zoneName(zone)}, ${zone}`;
  const [form, fields] = useForm({
    id: "record-opt-out",
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: recordOptOutSchema }),
  });
  return (
    <ListDialog title="Record opt-out" description={LEAD} closeHref="/containers" testId="record-opt-out-dialog">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="record-opt-out" />
        <input type="hidden" name="receivedZone" value={zone} />
        <FormErrors errors={form.errors} />
        <TextField label="Phone number" field={fields.number} type="tel" inputMode="tel" autoComplete="off" />
        <div>
          <label htmlFor={fields.receivedLocal.id} className="mb-1 block text-sm font-medium text-slate-700">
            Received (your time: {zoneLabel})
          </label>
          <input {...getInputProps(fields.receivedLocal, { type: "datetime-local" })} step={60} className={`${inputClass} max-w-xs`} />
          <FieldErrors id={fields.receivedLocal.errorId} errors={fields.receivedLocal.errors} />
        </div>
        <div>
          <label htmlFor={fields.channel.id} className="mb-1 block text-sm font-medium text-slate-700">
            Received by
          </label>
          <select {...getSelectProps(fields.channel)} className={inputClass}>
            <option value="">Choose…</option>
            {OPT_OUT_CHANNELS.map((c) => (
              <option key={c} value={c}>
                {CHANNEL_LABELS[c]}
              </option>
            ))}
          </select>
          <FieldErrors id={fields.channel.errorId} errors={fields.channel.errors} />
        </div>
        <div>
          <label htmlFor={fields.words.id} className="mb-1 block text-sm font-medium text-slate-700">
            Words received
          </label>
          <textarea {...getTextareaProps(fields.words)} rows={3} maxLength={MAX_OPT_OUT_WORDS} className={inputClass} placeholder="STOP" />
          <FieldErrors id={fields.words.errorId} errors={fields.words.errors} />
        </div>
        <TextField label="Campaign or subject (optional)" field={fields.subject} />
        <DialogButtons cancelTo="/containers" label="Record opt-out" busyLabel="Recording..." />
      </Form>
    </ListDialog>
  );
}

export function ImportOptOutsDialog({ maxUploadText }: { maxUploadText: string }) {
  const lastResult = useListResult("import-opt-outs");
  const [form, fields] = useForm({
    id: "import-opt-outs",
    lastResult,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: importOptOutsSchema(({ file }) => typeof File !== "undefined" && file instanceof File && file.size > 0) }),
  });
  return (
    <ListDialog title="Import opt-outs" description={LEAD} closeHref="/containers" testId="import-opt-outs-dialog">
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="import-opt-outs" />
        <FormErrors errors={form.errors} />
        <div>
          <label htmlFor={fields.file.id} className="mb-1 block text-sm font-medium text-slate-700">
            CSV file
          </label>
          <input {...getInputProps(fields.file, { type: "file" })} accept=".csv,.txt,.gz,.zip,text/csv" className={`${inputClass} max-w-full`} />
          <FieldErrors id={fields.file.errorId} errors={fields.file.errors} />
          <p className="mt-1 text-xs break-words text-slate-500">
            A header row naming <code>number</code>, <code>received_at</code> (ISO-8601 with its offset, e.g. 2026-11-27T15:04:05-05:00), <code>channel</code> (
            {OPT_OUT_CHANNELS.join(", ")}) and <code>words</code>, optionally <code>subject</code>; up to {MAX_OPT_OUTS_PER_REQUEST.toLocaleString("en-US")}{" "}
            rows and {maxUploadText}. All or nothing: a bad row is named and nothing is recorded.
          </p>
        </div>
        <DialogButtons cancelTo="/containers" label="Import opt-outs" busyLabel="Importing..." />
      </Form>
    </ListDialog>
  );
}

export interface OptOutRow {
  id: string;
  number: string;
  receivedAt: string;
  honouredAt: string | null;
  deadline: string;
  late: boolean;
  channel: (typeof OPT_OUT_CHANNELS)[number];
  words: string;
}

/** The latest opt-outs, as a list (readable at 390 px without a table's sideways scroll). */
export function LatestOptOuts({ rows }: { rows: OptOutRow[] }) {
  return (
    <section className="mt-8" aria-labelledby="opt-outs-heading">
      <h2 id="opt-outs-heading" className="text-base font-semibold text-slate-900">
        Latest opt-outs
      </h2>
      <p className="text-xs text-slate-500">
        Each must be honoured within {HONOUR_BUSINESS_DAYS} business days of receipt (47 CFR 64.1200(d)(3)), a Canadian number within{" "}
        {HONOUR_CALENDAR_DAYS_CANADA} days (CRTC Unsolicited Telecommunications Rules).
      </p>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">No opt-outs recorded yet.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" data-testid="opt-outs">
          {rows.map((o) => (
            <li key={o.id} className="p-3 text-sm">
              <p className="font-mono font-medium text-slate-900">{o.number}</p>
              <p className="break-words text-slate-600">
                {CHANNEL_LABELS[o.channel]}: “{o.words}”
              </p>
              <p className="text-xs text-slate-500">
                Received <DateTime value={o.receivedAt} /> ·{" "}
                {o.honouredAt ? (
                  <>
                    honoured <DateTime value={o.honouredAt} />
                  </>
                ) : (
                  "not honoured yet"
                )}
                {o.late ? <span className="ml-1 font-medium text-amber-700">(late)</span> : null}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
