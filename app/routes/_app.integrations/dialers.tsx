import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import { buttonClass, FieldErrors, FormErrors, inputClass, secondaryButtonClass } from "~/components/ui/form";
import { When } from "./parts";
import { campaignSchema } from "./forms";

/** The Integrations page's dialer section (issue #48): what to paste into each dialer, campaign settings, the last requests received. */

export interface DialersData {
  scrubUrl: string;
  checkUrl: string;
  callsUrl: string;
  keyHint: string | null;
  campaigns: { campaignId: string; containerName: string | null; exemptionListName: string | null }[];
  containers: { id: number; name: string }[];
  exemptionLists: { id: number; name: string }[];
  lastRequests: {
    endpoint: string;
    at: string;
    method: string;
    status: number;
    outcome: string;
    detail: string;
    numbers: number | null;
    campaignId: string | null;
  }[];
}

const ENDPOINT_LABEL: Record<string, string> = { scrub: "Scrub (DNCScrub-compatible)", check: "Yes/no check", calls: "Call events" };

function Paste({ label, value, id }: { label: string; value: string; id: string }) {
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={id}
        readOnly
        rows={Math.min(10, value.split("\n").length)}
        value={value}
        className="mt-1 block w-full resize-y rounded-md border border-slate-200 bg-slate-50 p-2 font-mono text-xs break-all whitespace-pre-wrap text-slate-800"
      />
    </div>
  );
}

export function DialersCard({ d, here, lastResult }: { d: DialersData; here: string; lastResult?: SubmissionResult<string[]> }) {
  const key = d.keyHint ? `${d.keyHint}… (your full API key: shown once when it was created)` : "<your API key: create an integration to get one>";
  const keyParam = d.keyHint ? `${d.keyHint}…` : "<API key>";
  const container = [
    `DNC_DOT_COM_URL => ${d.scrubUrl}`,
    `LOGIN_ID => ${key}`,
    "PROJ_ID => ",
    "CAMPAIGN_ID => <your campaign ID, as set below>",
    "VERSION => 3",
    "VICI_LISTS => <the list IDs to scrub, e.g. 105-106>",
    "VICI_STATUS_SKIP => SALE-DNC",
  ].join("\n");
  // no call_date: the dispo URL fires just after the call, which is recorded at that instant (no time zone needed)
  const dispo = `${d.callsUrl}?key=${keyParam}&phone_number=--A--phone_number--B--&campaign_id=--A--campaign--B--&status=--A--dispo--B--&length_in_sec=--A--talk_time--B--&uniqueid=--A--uniqueid--B--`;
  const [form, fields] = useForm({
    id: "campaign-form",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: campaignSchema }),
    shouldValidate: "onBlur",
  });
  return (
    <section aria-labelledby="dialers-title" className="rounded-xl border border-slate-200 bg-white shadow-sm" data-testid="dialers">
      <div className="border-b border-slate-100 px-5 py-3">
        <h2 id="dialers-title" className="text-base font-semibold text-slate-900">
          Dialers
        </h2>
        <p className="text-sm text-slate-600">Point your dialer at us: copy these values as they are. Every request is counted as live lookups.</p>
      </div>
      <div className="space-y-4 p-5">
        <details open className="rounded-lg border border-slate-200 p-3" data-testid="dialer-vicidial">
          <summary className="cursor-pointer text-sm font-semibold text-slate-900">VICIdial</summary>
          <div className="mt-3 space-y-3">
            <p className="text-sm text-slate-700">
              In the VICIdial admin, create the Settings Container <code className="font-mono">DNCDOTCOM</code> with these values, then run{" "}
              <code className="font-mono">AST_DNCcom_filter.pl</code> as VICIdial documents. The script exits without an error even when we refuse a request:
              read VICIdial&apos;s admin log, and the last requests below.
            </p>
            <Paste id="vicidial-container" label="Settings container DNCDOTCOM" value={container} />
            <Paste
              id="vicidial-did"
              label="DID filter URL (answers 1 to block, 0 to let the call through)"
              value={`${d.checkUrl}?phone=--A--phone_number--B--&key=${keyParam}`}
            />
            <Paste id="vicidial-dispo" label="Dispo Call URL (each call into the call history, so caps count it)" value={dispo} />
          </div>
        </details>
        <details className="rounded-lg border border-slate-200 p-3" data-testid="dialer-http">
          <summary className="cursor-pointer text-sm font-semibold text-slate-900">Generic HTTP dialer</summary>
          <div className="mt-3 space-y-3">
            <Paste id="http-scrub" label="Scrub URL (GET or POST; header or field loginId; phoneList, campaignId, output=csv or json)" value={d.scrubUrl} />
            <Paste
              id="http-check"
              label="Yes/no check (header Authorization: Bearer <key>; or key= in the URL)"
              value={`${d.checkUrl}?phone=<number>&campaign=<campaign ID>`}
            />
            <Paste id="http-key" label="API key" value={key} />
          </div>
        </details>
        <details className="rounded-lg border border-slate-200 p-3" data-testid="dialer-crm">
          <summary className="cursor-pointer text-sm font-semibold text-slate-900">CRM webhook</summary>
          <div className="mt-3 space-y-3">
            <Paste id="crm-url" label="Webhook URL (POST JSON; header Authorization: Bearer <key>)" value={d.callsUrl} />
            <Paste
              id="crm-body"
              label="Body"
              value={
                '{ "calls": [ { "number": "2125550123", "at": "2026-11-28T15:04:05Z", "outcome": "connected", "subject": "<campaign ID>", "dialer_call_id": "<your call id>" } ] }'
              }
            />
          </div>
        </details>

        <div>
          <h3 className="text-sm font-semibold text-slate-900">Campaigns</h3>
          <p className="text-sm text-slate-600">
            A dialer&apos;s campaign ID is the calls&apos; subject in the call history. Give it a container and an exemption list here; a campaign not listed
            uses the integration&apos;s container and no exemption list.
          </p>
          {d.campaigns.length > 0 && (
            <ul className="mt-2 divide-y divide-slate-100 text-sm">
              {d.campaigns.map((c) => (
                <li key={c.campaignId} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid="campaign-row">
                  <span>
                    <code className="font-mono">{c.campaignId}</code>: container {c.containerName ?? "none"}, exemption list {c.exemptionListName ?? "none"}
                  </span>
                  <Form method="post">
                    <input type="hidden" name="intent" value="delete-campaign" />
                    <input type="hidden" name="campaignId" value={c.campaignId} />
                    <button type="submit" className="text-sm font-medium text-red-700 hover:underline" aria-label={`Remove campaign ${c.campaignId}`}>
                      Remove
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          )}
          <Form method="post" {...getFormProps(form)} className="mt-3 grid gap-3 sm:grid-cols-4 sm:items-end">
            <input type="hidden" name="intent" value="save-campaign" />
            <FormErrors errors={form.errors} />
            <div>
              <label htmlFor={fields.campaignId.id} className="text-sm font-medium text-slate-700">
                Campaign ID
              </label>
              <input {...getInputProps(fields.campaignId, { type: "text" })} className={inputClass} />
              <FieldErrors id={fields.campaignId.errorId} errors={fields.campaignId.errors} />
            </div>
            <div>
              <label htmlFor={fields.containerId.id} className="text-sm font-medium text-slate-700">
                Container
              </label>
              <select {...getSelectProps(fields.containerId)} className={inputClass}>
                <option value="">None</option>
                {d.containers.map((c) => (
                  <option key={c.id} value={String(c.id)}>
                    {c.name}
                  </option>
                ))}
              </select>
              <FieldErrors id={fields.containerId.errorId} errors={fields.containerId.errors} />
            </div>
            <div>
              <label htmlFor={fields.exemptionListId.id} className="text-sm font-medium text-slate-700">
                Exemption list
              </label>
              <select {...getSelectProps(fields.exemptionListId)} className={inputClass}>
                <option value="">None</option>
                {d.exemptionLists.map((l) => (
                  <option key={l.id} value={String(l.id)}>
                    {l.name}
                  </option>
                ))}
              </select>
              <FieldErrors id={fields.exemptionListId.errorId} errors={fields.exemptionListId.errors} />
            </div>
            <button type="submit" className={buttonClass}>
              Set campaign
            </button>
          </Form>
        </div>

        <div>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 className="text-sm font-semibold text-slate-900">Last requests received</h3>
            <Form method="get" action="/integrations">
              {here.includes("integration=") && (
                <input type="hidden" name="integration" value={new URLSearchParams(here.split("?")[1]).get("integration") ?? ""} />
              )}
              <button type="submit" className={secondaryButtonClass}>
                Test connection
              </button>
            </Form>
          </div>
          <p className="text-sm text-slate-600">Send a request from the dialer, then press Test connection: the last request of each kind shows here.</p>
          {d.lastRequests.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600" data-testid="no-dialer-requests">
              No dialer request received yet.
            </p>
          ) : (
            <ul className="mt-2 space-y-2 text-sm" data-testid="dialer-requests">
              {d.lastRequests.map((r) => (
                <li key={r.endpoint} className="rounded-md border border-slate-100 p-2" data-testid="dialer-request">
                  <p className="font-medium text-slate-900">
                    {ENDPOINT_LABEL[r.endpoint] ?? r.endpoint}:{" "}
                    <span className={r.outcome === "answered" ? "text-green-800" : "text-red-800"}>
                      {r.outcome === "answered" ? "answered" : "refused"} ({r.status})
                    </span>
                  </p>
                  <p className="break-words text-slate-700">
                    <When iso={r.at} /> · {r.method}
                    {r.campaignId ? ` · campaign ${r.campaignId}` : ""} · {r.detail}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}
