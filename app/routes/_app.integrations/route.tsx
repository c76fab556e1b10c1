import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { RouteDialog } from "~/components/pricing";
import { buttonClass, FieldErrors, FormErrors, inputClass, secondaryButtonClass } from "~/components/ui/form";
import { PageHeader } from "~/components/ui/page-header";
import { DataTable } from "~/components/ui/data-table";
import {
  countIntegrations,
  createApiKey,
  createIntegration,
  deleteIntegration,
  findOwnContainer,
  getIntegration,
  listApiKeys,
  listDeliveries,
  listIntegrations,
  MAX_INTEGRATIONS_PER_USER,
  renameApiKey,
  MAX_KEYS_PER_INTEGRATION,
  revokeApiKey,
  rotateWebhookSecret,
  setIntegrationToggle,
  updateIntegration,
} from "~/models/integration.server";
import { listContainers } from "~/models/container.server";
import { getPlanState } from "~/models/usage.server";
import { recordAudit } from "~/models/user.server";
import { requireUser } from "~/utils/auth.server";
import { getDb } from "~/utils/db.server";
import { appUrl } from "~/utils/env.server";
import { createKeySchema, idSchema, integrationSchema, renameKeySchema, toggleSchema } from "~/utils/integration-forms";
import { flashToast } from "~/utils/session.server";
import { webhookUrlProblem } from "~/integrations/webhook-url.server";
import { API_REQUESTS_PER_HOUR } from "~/api/rate-limit.server";
import { LOOKUP_BURST, LOOKUP_REQUESTS_PER_SECOND } from "~/api/lookup-budget";
import { DateTime } from "~/components/ui/date-time";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error-boundary";

export const meta: MetaFunction = () => [{ title: "API Integrations · Data Purging Tool" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const url = new URL(request.url);
  const [integrations, keys, containers, plan] = await Promise.all([
    listIntegrations(db, user.id),
    listApiKeys(db, user.id),
    listContainers(db, user.id),
    getPlanState(db, user.id),
  ]);
  const wanted = url.searchParams.get("integration");
  const selected = integrations.find((i) => i.id === wanted) ?? integrations[0] ?? null;
  // The delivery log of the integration on show (its 25 latest attempts).
  const deliveries = selected ? await listDeliveries(db, { userId: user.id, integrationId: selected.id, limit: 25 }) : [];
  return {
    integrations,
    selectedId: selected?.id ?? null,
    keys: selected ? keys.filter((k) => k.integrationId === selected.id) : [],
    deliveries,
    containers: containers.map((c) => ({ id: c.id, name: c.name })),
    apiAccess: plan.unlimited || (plan.plan?.apiAccess ?? false),
    planName: plan.plan?.name ?? null,
    baseUrl: `${appUrl()}/api/v1`,
    limitPerHour: API_REQUESTS_PER_HOUR,
    lookupsPerSecond: LOOKUP_REQUESTS_PER_SECOND,
    lookupBurst: LOOKUP_BURST,
  };
}

type Revealed = {
  kind: "api-key" | "webhook-secret";
  value: string;
  label: string;
  integrationId: string;
  /** A new integration with a webhook URL: its signing secret, shown together with the first key. */
  secret?: string;
};
type ActionData = { form: "integration" | "key" | "rename"; result: SubmissionResult<string[]> } | { revealed: Revealed };

const TOGGLE_LABEL = {
  webhook_enabled: "Webhook notifications",
  rate_limit_enabled: "Rate limiting",
  auto_retry_enabled: "Auto retry",
} as const;

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await request.formData();
  const handler = INTEGRATION_INTENTS[String(formData.get("intent") ?? "")];
  if (!handler) return data({ message: "Unknown action" }, { status: 400 });
  return handler({ request, user, db: await getDb(), formData, intent: String(formData.get("intent")) });
}

interface IntegrationActionContext {
  request: Request;
  user: Awaited<ReturnType<typeof requireUser>>;
  db: Awaited<ReturnType<typeof getDb>>;
  formData: FormData;
  intent: string;
}

const back = (id?: string | null) => (id ? `/integrations?integration=${encodeURIComponent(id)}` : "/integrations");

async function toast(request: Request, title: string, description?: string, kind: "success" | "error" | "info" = "success") {
  return { headers: { "Set-Cookie": await flashToast(request, { kind, title, description }) } };
}

function notFound(): never {
  throw data({ message: "Integration not found" }, { status: 404 });
}

const INTEGRATION_INTENTS: Record<string, (ctx: IntegrationActionContext) => Promise<Response | ReturnType<typeof data>>> = {
  "create-integration": saveIntegration,
  "update-integration": saveIntegration,
  "create-key": createKey,
  "rename-key": renameKey,
  toggle: toggleSetting,
  "revoke-key": revokeKey,
  "delete-integration": removeIntegration,
  "rotate-secret": rotateSecret,
};

async function saveIntegration({ request, user, db, formData, intent }: IntegrationActionContext) {
  const submission = parseWithZod(formData, { schema: integrationSchema });
  if (submission.status !== "success") return data<ActionData>({ form: "integration", result: submission.reply() }, { status: 400 });
  const v = submission.value;
  const fieldErrors: Record<string, string[]> = {};
  const webhookUrl = v.webhookUrl || null;
  const urlProblem = webhookUrl ? webhookUrlProblem(webhookUrl) : null;
  if (urlProblem) fieldErrors.webhookUrl = [urlProblem];
  const containerId = v.containerId ? Number(v.containerId) : null;
  if (containerId !== null && !(await findOwnContainer(db, user.id, containerId))) fieldErrors.containerId = ["Choose one of your containers"];
  if (Object.keys(fieldErrors).length) {
    return data<ActionData>({ form: "integration", result: submission.reply({ fieldErrors }) }, { status: 400 });
  }
  const input = { userId: user.id, name: v.name, description: v.description ?? "", containerId, webhookUrl };
  if (intent === "create-integration") {
    if ((await countIntegrations(db, user.id)) >= MAX_INTEGRATIONS_PER_USER) {
      return data<ActionData>(
        { form: "integration", result: submission.reply({ formErrors: [`You can have at most ${MAX_INTEGRATIONS_PER_USER} integrations.`] }) },
        { status: 400 },
      );
    }
    const created = await createIntegration(db, input);
    await recordAudit(db, { actorId: user.id, action: "integration.create", targetType: "integration", targetId: created.id, details: { name: v.name } });
    // A first key comes with the integration, shown once like every key.
    const key = await createApiKey(db, { userId: user.id, integrationId: created.id, name: "Default key" });
    if ("error" in key) throw new Error(`could not create the first key: ${key.error}`);
    await recordAudit(db, { actorId: user.id, action: "api_key.create", targetType: "api_key", targetId: key.id, details: { integrationId: created.id } });
    return data<ActionData>({
      revealed: {
        kind: "api-key",
        value: key.key,
        label: `Integration "${v.name}" created`,
        integrationId: created.id,
        ...(created.webhookSecret ? { secret: created.webhookSecret } : {}),
      },
    });
  }
  const id = v.integrationId ?? "";
  const updated = await updateIntegration(db, { ...input, id });
  if (!updated.updated) return notFound();
  await recordAudit(db, { actorId: user.id, action: "integration.update", targetType: "integration", targetId: id, details: { name: v.name } });
  if (updated.webhookSecret) {
    return data<ActionData>({
      revealed: { kind: "webhook-secret", value: updated.webhookSecret, label: `Integration "${v.name}" updated`, integrationId: id },
    });
  }
  return redirect(back(id), await toast(request, "Integration Updated"));
}

async function createKey({ user, db, formData }: IntegrationActionContext) {
  const submission = parseWithZod(formData, { schema: createKeySchema });
  if (submission.status !== "success") return data<ActionData>({ form: "key", result: submission.reply() }, { status: 400 });
  const created = await createApiKey(db, { userId: user.id, integrationId: submission.value.integrationId, name: submission.value.name });
  if ("error" in created) {
    if (created.error === "not_found") return notFound();
    return data<ActionData>(
      { form: "key", result: submission.reply({ formErrors: [`An integration can have at most ${MAX_KEYS_PER_INTEGRATION} active keys. Revoke one first.`] }) },
      { status: 400 },
    );
  }
  await recordAudit(db, {
    actorId: user.id,
    action: "api_key.create",
    targetType: "api_key",
    targetId: created.id,
    details: { integrationId: submission.value.integrationId, name: submission.value.name },
  });
  return data<ActionData>({
    revealed: { kind: "api-key", value: created.key, label: `API key "${submission.value.name}" created`, integrationId: submission.value.integrationId },
  });
}

async function renameKey({ request, user, db, formData }: IntegrationActionContext) {
  const submission = parseWithZod(formData, { schema: renameKeySchema });
  if (submission.status !== "success") return data<ActionData>({ form: "rename", result: submission.reply() }, { status: 400 });
  const { id, name } = submission.value;
  const key = (await listApiKeys(db, user.id)).find((k) => k.id === id);
  if (!key || !(await renameApiKey(db, { id, userId: user.id, name }))) return notFound();
  await recordAudit(db, { actorId: user.id, action: "api_key.rename", targetType: "api_key", targetId: id, details: { name } });
  return redirect(back(key.integrationId), await toast(request, "API Key Renamed", `${key.prefix}… is now "${name}".`));
}

async function toggleSetting({ request, user, db, formData }: IntegrationActionContext) {
  const submission = parseWithZod(formData, { schema: toggleSchema });
  if (submission.status !== "success") return data({ message: "Invalid toggle" }, { status: 400 });
  const { integrationId, toggle, value } = submission.value;
  const ok = await setIntegrationToggle(db, { id: integrationId, userId: user.id, toggle, on: value === "on" });
  if (!ok) return notFound();
  await recordAudit(db, { actorId: user.id, action: "integration.toggle", targetType: "integration", targetId: integrationId, details: { toggle, value } });
  return redirect(back(integrationId), await toast(request, `${TOGGLE_LABEL[toggle]} turned ${value}`));
}

/** The id of the key or integration an intent acts on, or a 400 answer. */
function idOf(formData: FormData): string | Response {
  const submission = parseWithZod(formData, { schema: idSchema });
  return submission.status === "success" ? submission.value.id : Response.json({ message: "Missing id" }, { status: 400 });
}

async function revokeKey({ request, user, db, formData }: IntegrationActionContext) {
  const id = idOf(formData);
  if (id instanceof Response) return id;
  const key = (await listApiKeys(db, user.id)).find((k) => k.id === id);
  if (!key || !(await revokeApiKey(db, { id, userId: user.id }))) return notFound();
  await recordAudit(db, { actorId: user.id, action: "api_key.revoke", targetType: "api_key", targetId: id });
  return redirect(back(key.integrationId), await toast(request, "API Key Revoked", `${key.name} (${key.prefix}…) no longer works.`));
}

async function removeIntegration({ request, user, db, formData }: IntegrationActionContext) {
  const id = idOf(formData);
  if (id instanceof Response) return id;
  const integration = await getIntegration(db, { id, userId: user.id });
  if (!integration || !(await deleteIntegration(db, { id, userId: user.id }))) return notFound();
  await recordAudit(db, { actorId: user.id, action: "integration.delete", targetType: "integration", targetId: id });
  return redirect("/integrations", await toast(request, "Integration Deleted", `${integration.name} and its API keys were removed.`));
}

async function rotateSecret({ request, user, db, formData }: IntegrationActionContext) {
  const id = idOf(formData);
  if (id instanceof Response) return id;
  const integration = await getIntegration(db, { id, userId: user.id });
  if (!integration) return notFound();
  const secret = await rotateWebhookSecret(db, { id, userId: user.id });
  if (!secret) return redirect(back(id), await toast(request, "No webhook URL", "Set a webhook URL first.", "error"));
  await recordAudit(db, { actorId: user.id, action: "integration.rotate_secret", targetType: "integration", targetId: id });
  return data<ActionData>({ revealed: { kind: "webhook-secret", value: secret, label: `New webhook secret for "${integration.name}"`, integrationId: id } });
}

function When({ iso }: { iso: string | null }) {
  return iso ? <DateTime value={iso} /> : <>Never</>;
}

function Card({ title, children, actions, id }: { title: string; children: React.ReactNode; actions?: React.ReactNode; id?: string }) {
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

function Toggle({ integrationId, name, on, label, hint }: { integrationId: string; name: string; on: boolean; label: string; hint: React.ReactNode }) {
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

function IntegrationDialog({
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
      ? { name: initial.name, description: initial.description, containerId: initial.containerId ? String(initial.containerId) : "", webhookUrl: initial.webhookUrl ?? "" }
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
          <p className="mt-1 text-xs text-slate-500">Scrubs sent with this integration&apos;s keys also suppress this container&apos;s numbers unless they name another.</p>
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

function RenameKeyForm({ keyId, name, lastResult, cancelTo }: { keyId: string; name: string; lastResult: SubmissionResult<string[]> | undefined; cancelTo: string }) {
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

function RevealPanel({ revealed }: { revealed: Revealed }) {
  const items: { title: string; value: string; testId: string }[] = [];
  if (revealed.kind === "api-key") items.push({ title: "API key", value: revealed.value, testId: "revealed-api-key" });
  else items.push({ title: "Webhook signing secret", value: revealed.value, testId: "revealed-webhook-secret" });
  if (revealed.secret) items.push({ title: "Webhook signing secret", value: revealed.secret, testId: "revealed-webhook-secret" });
  return (
    <RouteDialog title={revealed.label} description="Copy it now: it is shown only once and cannot be shown again." closeTo={`/integrations?integration=${revealed.integrationId}`}>
      <div className="space-y-4">
        {items.map((i) => (
          <div key={i.testId}>
            <label htmlFor={i.testId} className="mb-1 block text-sm font-medium text-slate-700">
              {i.title}
            </label>
            <input id={i.testId} data-testid={i.testId} readOnly value={i.value} className={`${inputClass} font-mono`} onFocus={(e) => e.currentTarget.select()} />
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

export default function Integrations() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | { message: string } | undefined;
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const selected = d.integrations.find((i) => i.id === d.selectedId) ?? null;
  const dialog = params.get("dialog");
  const revealed = actionData && "revealed" in actionData ? actionData.revealed : null;
  const integrationResult = actionData && "form" in actionData && actionData.form === "integration" ? actionData.result : undefined;
  const keyResult = actionData && "form" in actionData && actionData.form === "key" ? actionData.result : undefined;
  const renameResult = actionData && "form" in actionData && actionData.form === "rename" ? actionData.result : undefined;
  const renaming = params.get("rename");
  const here = selected ? `/integrations?integration=${selected.id}` : "/integrations";
  const [keyForm, keyFields] = useForm({
    id: `create-key-${selected?.id ?? "none"}`,
    lastResult: keyResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createKeySchema }),
  });
  const deliveries = d.deliveries;

  return (
    <div className="space-y-6">
      <PageHeader
        title="API Integrations"
        subtitle="Connect your systems to the scrub API with API keys, and get signed webhooks when scrubs finish."
        actions={
          <Link to={`${here}${here.includes("?") ? "&" : "?"}dialog=create-integration`} className={buttonClass}>
            Create Integration
          </Link>
        }
      />

      {!d.apiAccess && (
        <p className="rounded-lg border border-blue-200 bg-blue-50 p-4 text-sm text-blue-900" data-testid="api-access-notice">
          {d.planName ? `Your ${d.planName} plan does not include API access.` : "You have no active plan."} Keys can read your jobs and usage;
          submitting scrubs and adding numbers through the API needs the Business or Premium plan.{" "}
          <Link to="/pricing" className="font-medium underline">
            See plans
          </Link>
        </p>
      )}

      <Card title="Integrations" id="integrations-title">
        {d.integrations.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-600">No integrations yet. Create one to get an API key.</p>
        ) : (
          <DataTable headerCellClass="py-2 pr-4" columns={[{ label: "Name" }, { label: "Container" }, { label: "Webhook" }, { label: "API Keys" }, { label: "Last Used" }, { label: "Status" }, { label: <span className="sr-only">Actions</span> }]}>
                {d.integrations.map((i) => (
                  <tr key={i.id} className={i.id === d.selectedId ? "bg-blue-50/50" : undefined} data-testid="integration-row">
                    <td className="py-3 pr-4">
                      <p className="font-medium text-slate-900">{i.name}</p>
                      {i.description && <p className="text-xs text-slate-500">{i.description}</p>}
                    </td>
                    <td className="py-3 pr-4 text-slate-700">{i.containerName ?? "—"}</td>
                    <td className="max-w-[16rem] truncate py-3 pr-4 text-slate-700" title={i.webhookUrl ?? undefined}>
                      {i.webhookUrl ?? "—"}
                    </td>
                    <td className="py-3 pr-4 text-slate-700">{i.activeKeys}</td>
                    <td className="py-3 pr-4 text-slate-700"><When iso={i.lastUsedAt} /></td>
                    <td className="py-3 pr-4">
                      <span
                        className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
                          i.activeKeys > 0 ? "bg-green-100 text-green-800" : "bg-slate-100 text-slate-600"
                        }`}
                      >
                        {i.activeKeys > 0 ? "Active" : "No keys"}
                      </span>
                    </td>
                    <td className="py-3 text-right">
                      <Link to={`/integrations?integration=${i.id}`} className="text-sm font-medium text-blue-700 hover:underline" aria-label={`Manage ${i.name}`}>
                        Manage
                      </Link>
                    </td>
                  </tr>
                ))}
              </DataTable>
        )}
      </Card>

      {selected && (
        <div className="grid gap-6 lg:grid-cols-2">
          <Card
            title={`Settings · ${selected.name}`}
            id="settings-title"
            actions={
              <div className="flex gap-2">
                <Link to={`/integrations?integration=${selected.id}&dialog=edit-integration`} className={secondaryButtonClass}>
                  Edit
                </Link>
                <Form method="post">
                  <input type="hidden" name="intent" value="delete-integration" />
                  <input type="hidden" name="id" value={selected.id} />
                  <button
                    type="submit"
                    className="inline-flex items-center rounded-md border border-red-200 bg-white px-3 py-2 text-sm font-medium text-red-700 hover:bg-red-50"
                    onClick={(e) => {
                      if (!window.confirm(`Delete ${selected.name}? Its API keys stop working at once.`)) e.preventDefault();
                    }}
                  >
                    Delete
                  </button>
                </Form>
              </div>
            }
          >
            <div className="divide-y divide-slate-100">
              <Toggle
                integrationId={selected.id}
                name="webhook_enabled"
                on={selected.webhookEnabled}
                label="Webhook notifications"
                hint={selected.webhookUrl ? "POST a signed event to your webhook URL when a scrub finishes." : "Add a webhook URL (Edit) to receive events."}
              />
              <Toggle
                integrationId={selected.id}
                name="rate_limit_enabled"
                on={selected.rateLimitEnabled}
                label="Rate limiting"
                hint={
                  <>
                    <span className="font-medium">{d.limitPerHour} requests per hour</span>
                    {selected.rateLimitEnabled
                      ? " shared by all keys of this integration."
                      : " for each key on its own (the per-key limit always applies)."}{" "}
                    Live lookups: {d.lookupsPerSecond} requests per second
                    {selected.rateLimitEnabled ? ", shared likewise." : " per key."}
                  </>
                }
              />
              <Toggle
                integrationId={selected.id}
                name="auto_retry_enabled"
                on={selected.autoRetryEnabled}
                label="Auto retry"
                hint="Retry failed webhook deliveries up to 5 times with exponential backoff (1 s, 2 s, 4 s, 8 s)."
              />
            </div>
            <dl className="mt-4 grid grid-cols-3 gap-2 text-sm">
              <dt className="text-slate-500">Webhook URL</dt>
              <dd className="col-span-2 break-all text-slate-800">{selected.webhookUrl ?? "Not set"}</dd>
              <dt className="text-slate-500">Signing secret</dt>
              <dd className="col-span-2 flex flex-wrap items-center gap-2 text-slate-800">
                {selected.webhookSecretPrefix ? <code className="font-mono">{selected.webhookSecretPrefix}…</code> : "—"}
                {selected.webhookUrl && (
                  <Form method="post">
                    <input type="hidden" name="intent" value="rotate-secret" />
                    <input type="hidden" name="id" value={selected.id} />
                    <button type="submit" className="text-sm font-medium text-blue-700 hover:underline">
                      Rotate secret
                    </button>
                  </Form>
                )}
              </dd>
              <dt className="text-slate-500">Container</dt>
              <dd className="col-span-2 text-slate-800">{selected.containerName ?? "None"}</dd>
            </dl>
          </Card>

          <Card title="API Keys" id="keys-title">
            {d.keys.length === 0 ? (
              <p className="text-sm text-slate-600">No API keys for this integration.</p>
            ) : (
              <ul className="divide-y divide-slate-100">
                {d.keys.map((k) => (
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
        </div>
      )}

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <Card title="Webhook Deliveries" id="deliveries-title">
            {deliveries.length === 0 ? (
              <p className="text-sm text-slate-600">No deliveries yet.</p>
            ) : (
              <DataTable headerCellClass="py-2 pr-4" columns={[{ label: "Time" }, { label: "Event" }, { label: "Attempt" }, { label: "Result" }, { label: "Next attempt" }]}>
                    {deliveries.map((x) => (
                      <tr key={x.id} data-testid="delivery-row">
                        <td className="py-2 pr-3 whitespace-nowrap text-slate-700"><When iso={x.createdAt} /></td>
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
                        <td className="py-2 text-slate-700">{x.nextAttemptAt ? <When iso={x.nextAttemptAt} /> : x.error === null ? "—" : x.eventStatus === "failed" ? "Gave up" : "—"}</td>
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
                {d.limitPerHour} requests per hour per key; live lookups (POST /lookup): {d.lookupsPerSecond} requests per second per key
                (bursts up to {d.lookupBurst}), not counted in the hourly limit
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

      {revealed ? (
        <RevealPanel revealed={revealed} />
      ) : dialog === "create-integration" ? (
        <IntegrationDialog mode="create" containers={d.containers} lastResult={integrationResult} closeTo={here} />
      ) : dialog === "edit-integration" && selected ? (
        <IntegrationDialog
          mode="edit"
          containers={d.containers}
          lastResult={integrationResult}
          closeTo={here}
          initial={{ id: selected.id, name: selected.name, description: selected.description, containerId: selected.containerId, webhookUrl: selected.webhookUrl }}
        />
      ) : null}
    </div>
  );
}
