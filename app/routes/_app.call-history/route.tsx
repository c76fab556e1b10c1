import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { parsePhone } from "scrub-service/domain";
import type { CallFileField, CallFileMapping } from "scrub-service";
import { requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { env } from "~/utils/env.server";
import { flashToast } from "~/utils/session.server";
import { formatBytes, formatNumber, isValidTimeZone } from "~/utils/format";
import { useTimeZone } from "~/utils/time-zone";
import { getPlanState } from "~/models/usage.server";
import { getPlanGate } from "~/models/plan-gate.server";
import { readUploadForm } from "~/intake/upload-form.server";
import { getUpload } from "~/intake/upload-store.server";
import { importCallUpload, numberCallHistory } from "~/intake/call-import.server";
import { NoPlanGate } from "~/components/pricing";
import { PageHeader } from "~/components/ui/page-header";
import { DateTime } from "~/components/ui/date-time";
import { RouteErrorBoundary } from "~/components/route-error-boundary";
import { buttonClass, inputClass, secondaryButtonClass } from "~/components/ui/form";

export const meta: MetaFunction = () => [{ title: "Call History · Data Purging Tool" }];

const PAGE_SIZE = 25;
/** Bad lines listed on the screen (the count goes on past it). */
const SHOWN_ERRORS = 20;

const FIELDS: { field: CallFileField; label: string }[] = [
  { field: "number", label: "Number" },
  { field: "at", label: "Instant" },
  { field: "subject", label: "Subject" },
  { field: "channel", label: "Channel" },
  { field: "outcome", label: "Outcome" },
  { field: "debt_id", label: "Debt ID" },
  { field: "dialer_call_id", label: "Dialer call ID" },
];

/** Zones offered for files whose instants have no offset (the analyst's own is added when not among them). */
const ZONES = [
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Phoenix",
  "America/Los_Angeles",
  "America/Anchorage",
  "Pacific/Honolulu",
  "America/Puerto_Rico",
  "UTC",
];

const query = z.object({
  number: z.string().trim().max(40).catch(""),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  gate: z.enum(["closed"]).optional().catch(undefined),
});

/**
 * Call History (issue #46, decision 185 "The screen"): a dialer's call log imported (all or nothing, the CLI's reader
 * and column names; a VICIdial export recognised by its header; columns chosen when the names are not known), and one
 * number's records with its counts in the last 24 hours and 7 days. Plain forms: the same with JavaScript off. Every
 * query is scoped to the signed-in user's own records.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const q = query.parse(Object.fromEntries(new URL(request.url).searchParams));
  const gate = q.gate ? null : await getPlanGate(db, user.id, "/call-history");
  const hasPlan = (await getPlanState(db, user.id)).hasAccess;
  let search: null | { error: string } | { digits: string; page: number; pageCount: number; history: Awaited<ReturnType<typeof numberCallHistory>> } = null;
  if (q.number) {
    const p = parsePhone(q.number);
    if (!p.ok) search = { error: `${q.number}: ${p.message}` };
    else {
      const history = await numberCallHistory(db, user.id, p.number, { limit: PAGE_SIZE, offset: (q.page - 1) * PAGE_SIZE });
      search = { digits: p.digits, page: q.page, pageCount: Math.max(1, Math.ceil(history.totalRecords / PAGE_SIZE)), history };
    }
  }
  // the dossier form's default window (the last 30 days), fixed here so server and browser render the same dates
  const today = new Date().toISOString().slice(0, 10);
  const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  return { number: q.number, search, gate, hasPlan, maxUploadText: formatBytes(env().MAX_UPLOAD_BYTES), dossierDays: { from: monthAgo, to: today } };
}

type ActionReply =
  | { step: "errors"; errors: string[]; total: number }
  | { step: "map"; uploadId: string; fileName: string; columns: string[]; zone: string; message: string | null };

const reply = (errors: string[], status = 400, total = errors.length) => data<ActionReply>({ step: "errors", errors, total }, { status });

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  // a body that may carry a file is read only for users with a plan (checked before reading it)
  if (!(await getPlanState(db, user.id)).hasAccess) return redirect("/call-history");
  const form = await readUploadForm(request, { userId: user.id });
  if (form.refusal) {
    await form.discard();
    return reply([form.refusal.message], form.refusal.status);
  }
  if (form.malformed || form.textTooLarge || form.manyFiles) {
    await form.discard();
    return reply(["The form was not complete; please try again with one file."]);
  }
  const f = form.fields;
  const zoneText = String(f.get("zone") ?? "");
  if (zoneText && !isValidTimeZone(zoneText)) {
    await form.discard();
    return reply(["Choose a time zone from the list."]);
  }
  const zone = zoneText || null;
  let upload = form.upload;
  let mapping: CallFileMapping | undefined;
  if (f.get("intent") === "map") {
    await form.discard();
    upload = (await getUpload(user.id, f.get("upload"))) ?? null;
    if (!upload) return reply(["The uploaded file is no longer here; please upload it again."], 404);
    mapping = {};
    for (const { field } of FIELDS) {
      const v = String(f.get(`col_${field}`) ?? "");
      if (v) mapping[field] = v;
    }
  }
  if (!upload) return reply(["Choose a call log file (CSV, XLSX, .gz or .zip)."]);
  const r = await importCallUpload(db, { userId: user.id, upload, zone, mapping });
  if (r.kind === "done") {
    const description = `${formatNumber(r.recorded)} recorded, ${formatNumber(r.ignored)} ${r.ignored === 1 ? "repeat" : "repeats"} ignored.`;
    return redirect("/call-history", { headers: { "Set-Cookie": await flashToast(request, { kind: "success", title: "Calls Imported", description }) } });
  }
  if (r.kind === "map") {
    return data<ActionReply>(
      { step: "map", uploadId: r.uploadId, fileName: r.fileName, columns: r.columns, zone: zone ?? "", message: r.message },
      { status: 200 },
    );
  }
  if (r.kind === "refused") return reply([r.message], 422);
  return reply(
    r.errors.slice(0, SHOWN_ERRORS).map((e) => `Line ${e.index}, ${e.field}: ${e.message}`),
    422,
    r.total,
  );
}

function ZoneSelect({ defaultValue }: { defaultValue: string | null }) {
  const own = useTimeZone();
  const zones = ZONES.includes(own) ? ZONES : [own, ...ZONES];
  return (
    <label className="block">
      <span className="mb-1 block text-sm font-medium text-slate-700">Time zone of instants without an offset</span>
      <select name="zone" defaultValue={defaultValue ?? own} className={`${inputClass} max-w-full`}>
        <option value="">None: every instant has its offset</option>
        {zones.map((z) => (
          <option key={z} value={z}>
            {z}
          </option>
        ))}
      </select>
    </label>
  );
}

function Alert({ children }: { children: React.ReactNode }) {
  return (
    <div role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-testid="call-import-errors">
      {children}
    </div>
  );
}

function CountCard({ label, counts }: { label: string; counts: { calls: number; texts: number; total: number } }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`calls-${label.replace(/\s+/g, "-").toLowerCase()}`}>
      <p className="text-xs text-slate-500">{label}</p>
      <p className="text-2xl font-semibold tabular-nums">{formatNumber(counts.total)}</p>
      <p className="text-xs text-slate-500">
        {formatNumber(counts.calls)} {counts.calls === 1 ? "call" : "calls"}, {formatNumber(counts.texts)} {counts.texts === 1 ? "text" : "texts"}
      </p>
    </div>
  );
}

export default function CallHistoryPage() {
  const { number, search, gate, hasPlan, maxUploadText } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <div>
      <PageHeader title="Call History" subtitle="Your dialer's calls and texts: imported from its call log, counted per number against the frequency caps." />
      {gate && <NoPlanGate gate={gate} closeTo="/call-history?gate=closed" />}

      <section aria-labelledby="import-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="import-heading" className="text-base font-semibold text-slate-900">
          Import a call log
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          CSV, XLSX, .gz or .zip, up to {maxUploadText}; all or nothing. Columns by name: number (or phone, phone_number), at (or call_date), subject (or
          campaign_id, campaign), channel, outcome (or status), debt_id, dialer_call_id (or call_id, uniqueid). A VICIdial <code>vicidial_log</code> export is
          recognised by its header; its call_date has no offset, so choose the dialer server&apos;s time zone.
        </p>
        {reply?.step === "errors" && (
          <Alert>
            <p className="font-medium">{reply.total > 1 ? `${formatNumber(reply.total)} problems: nothing was recorded.` : "Nothing was recorded."}</p>
            <ul className="mt-1 list-disc pl-5">
              {reply.errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
            {reply.total > reply.errors.length && <p className="mt-1">… and {formatNumber(reply.total - reply.errors.length)} more.</p>}
          </Alert>
        )}
        {!hasPlan ? (
          <p className="mt-3 text-sm text-slate-700" data-testid="call-import-plan">
            You need an active plan to import call logs.{" "}
            <Link to="/pricing" className="text-blue-700 underline">
              Choose a plan
            </Link>
            .
          </p>
        ) : reply?.step === "map" ? (
          <Form method="post" className="mt-3 space-y-3" aria-label="Choose the columns" data-testid="call-mapping-form">
            <input type="hidden" name="intent" value="map" />
            <input type="hidden" name="upload" value={reply.uploadId} />
            <p className="text-sm text-slate-700">
              The columns of <span className="font-medium">{reply.fileName}</span> were not recognised by their names: choose which column holds what.
            </p>
            {reply.message && <p className="text-sm text-red-800">{reply.message}</p>}
            <div className="grid gap-3 sm:grid-cols-2">
              {FIELDS.map(({ field, label }) => (
                <label key={field} className="block">
                  <span className="mb-1 block text-sm font-medium text-slate-700">
                    {label}
                    {field === "number" || field === "at" || field === "outcome" ? " (required)" : ""}
                  </span>
                  <select name={`col_${field}`} defaultValue="" className={`${inputClass} w-full`}>
                    <option value="">(none)</option>
                    {reply.columns.map((c, i) => (
                      <option key={`${i}-${c}`} value={c}>
                        {c || `Column ${i + 1}`}
                      </option>
                    ))}
                  </select>
                </label>
              ))}
            </div>
            <ZoneSelect defaultValue={reply.zone} />
            <div className="flex flex-wrap gap-2">
              <button type="submit" className={buttonClass} disabled={busy}>
                Import Calls
              </button>
              <Link to="/call-history" className={secondaryButtonClass}>
                Cancel
              </Link>
            </div>
          </Form>
        ) : (
          <Form method="post" encType="multipart/form-data" className="mt-3 space-y-3" data-testid="call-import-form">
            <input type="hidden" name="intent" value="import" />
            <label className="block">
              <span className="mb-1 block text-sm font-medium text-slate-700">Call log file</span>
              <input type="file" name="file" required accept=".csv,.txt,.xlsx,.gz,.zip" className="block w-full max-w-full text-sm" />
            </label>
            <ZoneSelect defaultValue={null} />
            <button type="submit" className={buttonClass} disabled={busy}>
              Import Calls
            </button>
          </Form>
        )}
      </section>

      <section aria-labelledby="number-heading" className="mt-6">
        <h2 id="number-heading" className="text-base font-semibold text-slate-900">
          A number&apos;s history
        </h2>
        <Form method="get" className="mt-2 flex flex-wrap items-end gap-2" role="search">
          <label className="block">
            <span className="mb-1 block text-sm font-medium text-slate-700">Phone number</span>
            <input name="number" defaultValue={number} inputMode="tel" placeholder="(212) 555-2345" className={`${inputClass} w-64 max-w-full`} />
          </label>
          <button type="submit" className={secondaryButtonClass}>
            Search
          </button>
        </Form>
        {search && "error" in search && (
          <p role="alert" className="mt-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-testid="number-error">
            {search.error}
          </p>
        )}
        {search && "history" in search && <NumberHistory search={search} />}
      </section>
    </div>
  );
}

type Found = Extract<NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["search"]>, { history: unknown }>;

function NumberHistory({ search }: { search: Found }) {
  const { digits, page, pageCount, history } = search;
  const here = `/call-history?number=${digits}`;
  return (
    <div className="mt-4" data-testid="number-history">
      <div className="grid gap-3 sm:grid-cols-3">
        <CountCard label="Last 24 hours" counts={history.last24h} />
        <CountCard label="Last 7 days" counts={history.last7d} />
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <p className="text-xs text-slate-500">Records of {digits}</p>
          <p className="text-2xl font-semibold tabular-nums" data-testid="calls-total">
            {formatNumber(history.totalRecords)}
          </p>
        </div>
      </div>
      <DossierForm digits={digits} />
      {history.records.length === 0 ? (
        <p className="mt-4 rounded-xl border border-dashed border-slate-300 bg-white py-8 text-center text-sm text-slate-500" data-testid="calls-empty">
          {history.totalRecords ? "No records on this page." : `No calls or texts recorded for ${digits}.`}
        </p>
      ) : (
        <div className="mt-4 overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="min-w-full text-left text-sm" aria-label={`Calls of ${digits}`}>
            <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-500">
              <tr>
                {["When", "Channel", "Outcome", "Subject", "Debt ID", "Dialer call ID", "Reserved"].map((h) => (
                  <th key={h} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {history.records.map((r) => (
                <tr key={r.id} data-testid="call-row">
                  <td className="px-3 py-2 whitespace-nowrap">
                    <DateTime value={r.at} />
                  </td>
                  <td className="px-3 py-2 capitalize">{r.channel}</td>
                  <td className="px-3 py-2 capitalize">{r.outcome}</td>
                  <td className="px-3 py-2 break-all">{r.subject}</td>
                  <td className="px-3 py-2 break-all">{r.debtId ?? "—"}</td>
                  <td className="px-3 py-2 break-all">{r.dialerCallId ?? "—"}</td>
                  <td className="px-3 py-2">{r.reserved ? "Yes" : "No"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pageCount > 1 && (
        <nav aria-label="Pages" className="mt-3 flex flex-wrap gap-4 text-sm">
          {page > 1 && (
            <Link to={`${here}&page=${page - 1}`} className="text-blue-700 underline">
              Newer
            </Link>
          )}
          <span className="text-slate-500">
            Page {page} of {pageCount}
          </span>
          {page < pageCount && (
            <Link to={`${here}&page=${page + 1}`} className="text-blue-700 underline">
              Older
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };

/**
 * The number's dossier (issue #47): every answer given about it, its calls and texts, exemption records and opt-outs,
 * with the signed proof from the decision ledger, for a window of days. A plain GET form to /dossier: a download
 * with JavaScript on or off.
 */
function DossierForm({ digits }: { digits: string }) {
  const { from: monthAgo, to: today } = useLoaderData<typeof loader>().dossierDays;
  return (
    <form method="get" action="/dossier" className="mt-4 rounded-lg border border-slate-200 bg-white p-4" data-testid="dossier-form">
      <h3 className="text-sm font-semibold text-slate-900">Dossier of {digits}</h3>
      <p className="mt-1 text-xs text-slate-500">
        Every answer given about this number, its calls and texts, exemption records and opt-outs, with the signed proof from your decision ledger. The PDF is
        for people and carries the JSON inside; the JSON checks offline with <code>npm run verify -- --dossier</code>.
      </p>
      <input type="hidden" name="number" value={digits} />
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="dossier-from" className="block text-xs font-medium text-slate-700">
            From (UTC day)
          </label>
          <input id="dossier-from" type="date" name="from" defaultValue={monthAgo} max={today} required className={`${inputClass} w-40`} />
        </div>
        <div>
          <label htmlFor="dossier-to" className="block text-xs font-medium text-slate-700">
            To (UTC day)
          </label>
          <input id="dossier-to" type="date" name="to" defaultValue={today} max={today} required className={`${inputClass} w-40`} />
        </div>
        <button type="submit" name="format" value="pdf" className={buttonClass}>
          Download PDF
        </button>
        <button type="submit" name="format" value="json" className={secondaryButtonClass}>
          Download JSON
        </button>
      </div>
    </form>
  );
}
