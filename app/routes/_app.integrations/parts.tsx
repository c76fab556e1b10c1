import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useNavigation } from "@remix-run/react";
import { RouteDialog } from "~/components/pricing";
import { buttonClass, FieldErrors, FormErrors, inputClass, secondaryButtonClass } from "~/components/ui/form";
import { DataTable } from "~/components/ui/data-table";
import { DateTime } from "~/components/ui/date-time";
import type { ApiKeySummary, DeliverySummary } from "~/models/integration.server";
import { createKeySchema, integrationSchema, renameKeySchema, type Revealed } from "./forms";

/** The Integrations page's parts: cards, the settings switch, the integration dialog and the panel that shows a secret once. */

export function When({ iso }: { iso: string | null }) {
  return iso ? <DateTime value={iso} /> : <>Never</>;
}

export function Card({ title, children, actions, id }: { title: string; children: React.ReactNode; actions?: React.ReactNode; id?: string }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-slate-200 bg-white shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 px-5 py-3">
        <h2 id={id} className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        {actions}
      </div>
      <div className="p-5">{children}</div>
    </section>
  );
}

export function Toggle({ integrationId, name, on, label, hint }: { integrationId: string; name: string; on: boolean; label: string; hint: React.ReactNode }) {
  return (
    <Form method="post" className="flex items-start justify-between gap-4 py-3">
      <input type="hidden" name="intent" value="toggle" />
      <input type="hidden" name="integrationId" value={integrationId} />
      <input type="hidden" name="toggle" value={name} />
      <input type="hidden" name="value" value={on ? "off" : "on"} />
      <div>
        <p className="text-sm font-medium text-slate-900" id={`${name}-label`}>
          {label}
        </p>
        <p className="text-sm text-slate-600">{hint}</p>
      </div>
      <button
        type="submit"
        role="switch"
        aria-checked={on}
        aria-labelledby={`${name}-label`}
        title={on ? `Turn ${label.toLowerCase()} off` : `Turn ${label.toLowerCase()} on`}
        className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus:ring-2 focus:ring-blue-300 focus:outline-none ${
          on ? "bg-blue-600" : "bg-slate-300"
        }`}
      >
        <span className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${on ? "translate-x-5" : "translate-x-0.5"}`} />
        <span className="sr-only">{on ? "On" : "Off"}</span>
      </button>
    </Form>
  );
}

export function IntegrationDialog({
  mode,
  containers,
  lastResult,
  initial,
  closeTo,
}: {
  mode: "create" | "edit";
  containers: { id: number; name: string }[];
  lastResult: SubmissionResult<string[]> | undefined;
  initial?: { id: string; name: string; description: string; containerId: number | null; webhookUrl: string | null };
  closeTo: string;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `integration-${mode}`,
    lastResult,
    shouldValidate: "onBlur",
    defaultValue: initial
      ? {
          name: initial.name,
          description: initial.description,
          containerId: initial.containerId ? String(initial.containerId) : "",
          webhookUrl: initial.webhookUrl ?? "",
        }
      : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: integrationSchema }),
  });
  return (
    <RouteDialog
      title={mode === "create" ? "Create Integration" : "Edit Integration"}
      description={
        mode === "create"
          ? "Connect a system to the API. You get an API key right away; add a webhook URL to be told when scrubs finish."
          : "A new or changed webhook URL gets a new signing secret."
      }
      closeTo={closeTo}
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value={mode === "create" ? "create-integration" : "update-integration"} />
        {initial && <input type="hidden" name="integrationId" value={initial.id} />}
        <FormErrors errors={form.errors} />
        <div>
          <label htmlFor={fields.name.id} className="mb-1 block text-sm font-medium text-slate-700">
            Name
          </label>
          <input {...getInputProps(fields.name, { type: "text" })} className={inputClass} placeholder="e.g. Salesforce sync" maxLength={100} />
          <FieldErrors id={fields.name.errorId} errors={fields.name.errors} />
        </div>
        <div>
          <label htmlFor={fields.description.id} className="mb-1 block text-sm font-medium text-slate-700">
            Description
          </label>
          <textarea {...getTextareaProps(fields.description)} className={inputClass} rows={3} maxLength={500} />
          <FieldErrors id={fields.description.errorId} errors={fields.description.errors} />
        </div>
        <div>
          <label htmlFor={fields.containerId.id} className="mb-1 block text-sm font-medium text-slate-700">
            Container
          </label>
          <select {...getSelectProps(fields.containerId)} className={inputClass}>
            <option value="">No container</option>
            {containers.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name}
              </option>
            ))}
          </select>
          <p className="mt-1 text-xs text-slate-500">
            Scrubs sent with this integration&apos;s keys also suppress this container&apos;s numbers unless they name another.
          </p>
          <FieldErrors id={fields.containerId.errorId} errors={fields.containerId.errors} />
        </div>
        <div>
          <label htmlFor={fields.webhookUrl.id} className="mb-1 block text-sm font-medium text-slate-700">
            Webhook URL <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <input {...getInputProps(fields.webhookUrl, { type: "url" })} className={inputClass} placeholder="https://example.com/webhooks/purge" />
          <FieldErrors id={fields.webhookUrl.errorId} errors={fields.webhookUrl.errors} />
        </div>
        <div className="flex justify-end gap-2 pt-2">
          <Link to={closeTo} className={secondaryButtonClass}>
            Cancel
          </Link>
          <button type="submit" className={buttonClass} disabled={navigation.state === "submitting"}>
            {mode === "create" ? "Create Integration" : "Save Changes"}
          </button>
        </div>
      </Form>
    </RouteDialog>
  );
}

export function RenameKeyForm({
  keyId,
  name,
  lastResult,
  cancelTo,
}: {
  keyId: string;
  name: string;
  lastResult: SubmissionResult<string[]> | undefined;
  cancelTo: string;
}) {
  const [form, fields] = useForm({
    id: `rename-${keyId}`,
    lastResult,
    defaultValue: { name },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: renameKeySchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="flex w-full flex-wrap items-start gap-2">
      <input type="hidden" name="intent" value="rename-key" />
      <input type="hidden" name="id" value={keyId} />
      <div className="min-w-0 flex-1">
        <label htmlFor={fields.name.id} className="sr-only">
          Key name
        </label>
        <input {...getInputProps(fields.name, { type: "text" })} className={inputClass} maxLength={100} />
        <FieldErrors id={fields.name.errorId} errors={fields.name.errors} />
      </div>
      <button type="submit" className={buttonClass}>
        Save
      </button>
      <Link to={cancelTo} className={secondaryButtonClass}>
        Cancel
      </Link>
    </Form>
  );
}

export function RevealPanel({ revealed }: { revealed: Revealed }) {
  const items: { title: string; value: string; testId: string }[] = [];
  if (revealed.kind === "api-key") items.push({ title: "API key", value: revealed.value, testId: "revealed-api-key" });
  else items.push({ title: "Webhook signing secret", value: revealed.value, testId: "revealed-webhook-secret" });
  if (revealed.secret) items.push({ title: "Webhook signing secret", value: revealed.secret, testId: "revealed-webhook-secret" });
  return (
    <RouteDialog
      title={revealed.label}
      description="Copy it now: it is shown only once and cannot be shown again."
      closeTo={`/integrations?integration=${revealed.integrationId}`}
    >
      <div className="space-y-4">
        {items.map((i) => (
          <div key={i.testId}>
            <label htmlFor={i.testId} className="mb-1 block text-sm font-medium text-slate-700">
              {i.title}
            </label>
            <input
              id={i.testId}
              data-testid={i.testId}
              readOnly
              value={i.value}
              className={`${inputClass} font-mono`}
              onFocus={(e) => e.currentTarget.select()}
            />
          </div>
        ))}
        <p className="rounded-md border border-yellow-200 bg-yellow-50 p-3 text-sm text-yellow-900">
          Store it in your secret manager. If it is lost, create a new key (or rotate the secret) and revoke the old one.
        </p>
        <div className="flex justify-end">
          <Link to={`/integrations?integration=${revealed.integrationId}`} className={buttonClass}>
            Done
          </Link>
        </div>
      </div>
    </RouteDialog>
  );
}

export function KeysCard({
  selected,
  keys,
  renaming,
  renameResult,
  keyResult,
}: {
  selected: { id: string };
  keys: ApiKeySummary[];
  renaming: string | null;
  renameResult: SubmissionResult<string[]> | undefined;
  keyResult: SubmissionResult<string[]> | undefined;
}) {
  const navigation = useNavigation();
  const [keyForm, keyFields] = useForm({
    id: `create-key-${selected.id}`,
    lastResult: keyResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createKeySchema }),
  });
  return (
    <Card title="API Keys" id="keys-title">
      {keys.length === 0 ? (
        <p className="text-sm text-slate-600">No API keys for this integration.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {keys.map((k) => (
            <li key={k.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="api-key-row">
              <div className="min-w-0">
                <p className="text-sm font-medium text-slate-900">
                  {k.name}{" "}
                  {k.revokedAt ? (
                    <span className="ml-1 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-600">Revoked</span>
                  ) : (
                    <span className="ml-1 rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800">Active</span>
                  )}
                </p>
                <p className="font-mono text-xs text-slate-500">{k.prefix}…</p>
                <p className="text-xs text-slate-500">
                  Created <When iso={k.createdAt} /> · Last used <When iso={k.lastUsedAt} />
                </p>
              </div>
              {!k.revokedAt && renaming === k.id && (
                <RenameKeyForm keyId={k.id} name={k.name} lastResult={renameResult} cancelTo={`/integrations?integration=${selected.id}`} />
              )}
              {!k.revokedAt && renaming !== k.id && (
                <Link
                  to={`/integrations?integration=${selected.id}&rename=${k.id}`}
                  className="rounded-md border border-slate-200 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
                  aria-label={`Rename ${k.name}`}
                >
                  Rename
                </Link>
              )}
              {!k.revokedAt && (
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke-key" />
                  <input type="hidden" name="id" value={k.id} />
                  <button
                    type="submit"
                    className="rounded-md border border-red-200 px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
                    aria-label={`Revoke ${k.name}`}
                  >
                    Revoke
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
      <Form method="post" {...getFormProps(keyForm)} className="mt-4 border-t border-slate-100 pt-4">
        <input type="hidden" name="intent" value="create-key" />
        <input type="hidden" name="integrationId" value={selected.id} />
        <FormErrors errors={keyForm.errors} />
        <label htmlFor={keyFields.name.id} className="mb-1 block text-sm font-medium text-slate-700">
          New key name
        </label>
        <div className="flex gap-2">
          <input {...getInputProps(keyFields.name, { type: "text" })} className={inputClass} placeholder="e.g. Production" maxLength={100} />
          <button type="submit" className={`${buttonClass} shrink-0`} disabled={navigation.state === "submitting"}>
            Create API Key
          </button>
        </div>
        <FieldErrors id={keyFields.name.errorId} errors={keyFields.name.errors} />
      </Form>
    </Card>
  );
}

export function DeliveriesAndDocs({
  d,
}: {
  d: { deliveries: DeliverySummary[]; baseUrl: string; limitPerHour: number; lookupsPerSecond: number; lookupBurst: number };
}) {
  const deliveries = d.deliveries;
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="lg:col-span-2">
        <Card title="Webhook Deliveries" id="deliveries-title">
          {deliveries.length === 0 ? (
            <p className="text-sm text-slate-600">No deliveries yet.</p>
          ) : (
            <DataTable
              headerCellClass="py-2 pr-4"
              columns={[{ label: "Time" }, { label: "Event" }, { label: "Attempt" }, { label: "Result" }, { label: "Next attempt" }]}
            >
              {deliveries.map((x) => (
                <tr key={x.id} data-testid="delivery-row">
                  <td className="py-2 pr-3 whitespace-nowrap text-slate-700">
                    <When iso={x.createdAt} />
                  </td>
                  <td className="py-2 pr-3">
                    <p className="font-mono text-xs">{x.event}</p>
                    <p className="text-xs text-slate-500">{x.integrationName}</p>
                  </td>
                  <td className="py-2 pr-3 text-slate-700">{x.attempt}</td>
                  <td className="py-2 pr-3">
                    {x.error === null ? (
                      <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800">{x.statusCode} Delivered</span>
                    ) : (
                      <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800" title={x.error}>
                        {x.statusCode ?? "—"} {x.error.length > 40 ? `${x.error.slice(0, 40)}…` : x.error}
                      </span>
                    )}
                  </td>
                  <td className="py-2 text-slate-700">
                    {x.nextAttemptAt ? <When iso={x.nextAttemptAt} /> : x.error === null ? "—" : x.eventStatus === "failed" ? "Gave up" : "—"}
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </Card>
      </div>
      <Card title="API Documentation" id="docs-title">
        <p className="text-sm text-slate-700">Submit scrubs, poll progress, download results and add numbers to containers.</p>
        <dl className="mt-3 space-y-2 text-sm">
          <div>
            <dt className="text-slate-500">Base URL</dt>
            <dd className="font-mono text-xs break-all text-slate-800">{d.baseUrl}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Authentication</dt>
            <dd className="font-mono text-xs text-slate-800">Authorization: Bearer &lt;API key&gt;</dd>
          </div>
          <div>
            <dt className="text-slate-500">Rate limit</dt>
            <dd className="text-slate-800">
              {d.limitPerHour} requests per hour per key; live lookups (POST /lookup): {d.lookupsPerSecond} requests per second per key (bursts up to{" "}
              {d.lookupBurst}), not counted in the hourly limit
            </dd>
          </div>
        </dl>
        <div className="mt-4 flex flex-wrap gap-2">
          <Link to="/docs/api" className={buttonClass}>
            View API Reference
          </Link>
          <a href="/api/v1/openapi.json" className={secondaryButtonClass}>
            OpenAPI (JSON)
          </a>
        </div>
      </Card>
    </div>
  );
}
