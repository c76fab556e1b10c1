import { parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { buttonClass, secondaryButtonClass } from "~/components/ui/form";
import { PageHeader } from "~/components/ui/page-header";
import { DataTable } from "~/components/ui/data-table";
import {
  findOwnContainer,
  listApiKeys,
  listDeliveries,
  listIntegrations,
  MAX_INTEGRATIONS_PER_USER,
  MAX_KEYS_PER_INTEGRATION,
} from "~/models/integration.server";
import { deleteDialerCampaign, lastDialerRequests, listDialerCampaigns, saveDialerCampaign } from "~/models/dialer.server";
import { getExemptionList, listExemptionLists } from "~/models/exemption.server";
import {
  addApiKey,
  createIntegrationWithKey,
  integrationFieldErrors,
  removeIntegration,
  renameKey,
  revokeKey,
  rotateSecret,
  saveIntegration,
  toggleIntegration,
} from "~/integrations/manage.server";
import { listContainers } from "~/models/container.server";
import { getPlanState } from "~/models/usage.server";
import { requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { appUrl } from "~/utils/env.server";
import { flashToast } from "~/utils/session.server";
import { API_REQUESTS_PER_HOUR } from "~/api/rate-limit.server";
import { LOOKUP_BURST, LOOKUP_REQUESTS_PER_SECOND } from "~/api/lookup-budget";
import { campaignSchema, createKeySchema, deleteCampaignSchema, idSchema, integrationSchema, renameKeySchema, toggleSchema, type Revealed } from "./forms";
import { Card, DeliveriesAndDocs, IntegrationDialog, KeysCard, RevealPanel, Toggle, When } from "./parts";
import { DialersCard } from "./dialers";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error-boundary";

export const meta: MetaFunction = () => [{ title: "API Integrations · Data Purging Tool" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const db = await getDb();
  const url = new URL(request.url);
  const [integrations, keys, containers, plan, campaigns, lastRequests, exemptionLists] = await Promise.all([
    listIntegrations(db, user.id),
    listApiKeys(db, user.id),
    listContainers(db, user.id),
    getPlanState(db, user.id),
    listDialerCampaigns(db, user.id),
    lastDialerRequests(db, user.id),
    listExemptionLists(db, user.id),
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
    // what a dialer pastes (issue #48): built from the configured public address, never from the request
    dialers: {
      scrubUrl: `${appUrl()}/api/compat/dncscrub/scrub`,
      checkUrl: `${appUrl()}/api/v1/check`,
      callsUrl: `${appUrl()}/api/compat/calls`,
      keyHint: (selected ? keys.find((k) => k.integrationId === selected.id && !k.revokedAt) : undefined)?.prefix ?? null,
      campaigns: campaigns.map((c) => ({ campaignId: c.campaignId, containerName: c.containerName, exemptionListName: c.exemptionListName })),
      containers: containers.map((c) => ({ id: c.id, name: c.name })),
      exemptionLists: exemptionLists.map((l) => ({ id: l.id, name: l.name })),
      lastRequests,
    },
    limitPerHour: API_REQUESTS_PER_HOUR,
    lookupsPerSecond: LOOKUP_REQUESTS_PER_SECOND,
    lookupBurst: LOOKUP_BURST,
  };
}

type ActionData = { form: "integration" | "key" | "rename" | "campaign"; result: SubmissionResult<string[]> } | { revealed: Revealed };

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
  "create-integration": saveIntegrationIntent,
  "update-integration": saveIntegrationIntent,
  "create-key": createKeyIntent,
  "rename-key": renameKeyIntent,
  toggle: toggleIntent,
  "revoke-key": revokeKeyIntent,
  "delete-integration": deleteIntegrationIntent,
  "rotate-secret": rotateSecretIntent,
  "save-campaign": saveCampaignIntent,
  "delete-campaign": deleteCampaignIntent,
};

/** A dialer campaign's container and exemption list (issue #48): each must be the customer's own. */
async function saveCampaignIntent({ request, user, db, formData }: IntegrationActionContext) {
  const submission = parseWithZod(formData, { schema: campaignSchema });
  if (submission.status !== "success") return data<ActionData>({ form: "campaign", result: submission.reply() }, { status: 400 });
  const v = submission.value;
  const containerId = v.containerId ? Number(v.containerId) : null;
  const exemptionListId = v.exemptionListId ? Number(v.exemptionListId) : null;
  const fieldErrors: Record<string, string[]> = {};
  if (containerId !== null && !(await findOwnContainer(db, user.id, containerId))) fieldErrors.containerId = ["Choose one of your containers"];
  if (exemptionListId !== null && !(await getExemptionList(db, { id: exemptionListId, userId: user.id }))) {
    fieldErrors.exemptionListId = ["Choose one of your exemption lists"];
  }
  if (Object.keys(fieldErrors).length) return data<ActionData>({ form: "campaign", result: submission.reply({ fieldErrors }) }, { status: 400 });
  await saveDialerCampaign(db, user.id, { campaignId: v.campaignId, containerId, exemptionListId });
  return redirect(back(new URL(request.url).searchParams.get("integration")), await toast(request, "Campaign Saved", `Campaign ${v.campaignId} is set.`));
}

async function deleteCampaignIntent({ request, user, db, formData }: IntegrationActionContext) {
  const submission = parseWithZod(formData, { schema: deleteCampaignSchema });
  if (submission.status !== "success") return data({ message: "Missing campaign" }, { status: 400 });
  await deleteDialerCampaign(db, user.id, submission.value.campaignId);
  return redirect(
    back(new URL(request.url).searchParams.get("integration")),
    await toast(request, "Campaign Removed", `Campaign ${submission.value.campaignId} is removed.`),
  );
}

async function saveIntegrationIntent({ request, user, db, formData, intent }: IntegrationActionContext) {
  const submission = parseWithZod(formData, { schema: integrationSchema });
  if (submission.status !== "success") return data<ActionData>({ form: "integration", result: submission.reply() }, { status: 400 });
  const v = submission.value;
  const input = { name: v.name, description: v.description ?? "", containerId: v.containerId ? Number(v.containerId) : null, webhookUrl: v.webhookUrl || null };
  const fieldErrors = await integrationFieldErrors(db, user.id, input);
  if (Object.keys(fieldErrors).length) {
    return data<ActionData>({ form: "integration", result: submission.reply({ fieldErrors }) }, { status: 400 });
  }
  if (intent === "create-integration") {
    const created = await createIntegrationWithKey(db, user.id, input);
    if (!created.ok) {
      return data<ActionData>(
        { form: "integration", result: submission.reply({ formErrors: [`You can have at most ${MAX_INTEGRATIONS_PER_USER} integrations.`] }) },
        { status: 400 },
      );
    }
    // A first key comes with the integration, shown once like every key.
    return data<ActionData>({
      revealed: {
        kind: "api-key",
        value: created.key,
        label: `Integration "${v.name}" created`,
        integrationId: created.id,
        ...(created.webhookSecret ? { secret: created.webhookSecret } : {}),
      },
    });
  }
  const id = v.integrationId ?? "";
  const updated = await saveIntegration(db, user.id, id, input);
  if (!updated) return notFound();
  if (updated.webhookSecret) {
    return data<ActionData>({
      revealed: { kind: "webhook-secret", value: updated.webhookSecret, label: `Integration "${v.name}" updated`, integrationId: id },
    });
  }
  return redirect(back(id), await toast(request, "Integration Updated"));
}

async function createKeyIntent({ user, db, formData }: IntegrationActionContext) {
  const submission = parseWithZod(formData, { schema: createKeySchema });
  if (submission.status !== "success") return data<ActionData>({ form: "key", result: submission.reply() }, { status: 400 });
  const { integrationId, name } = submission.value;
  const created = await addApiKey(db, user.id, integrationId, name);
  if ("error" in created) {
    if (created.error === "not_found") return notFound();
    return data<ActionData>(
      { form: "key", result: submission.reply({ formErrors: [`An integration can have at most ${MAX_KEYS_PER_INTEGRATION} active keys. Revoke one first.`] }) },
      { status: 400 },
    );
  }
  return data<ActionData>({ revealed: { kind: "api-key", value: created.key, label: `API key "${name}" created`, integrationId } });
}

async function renameKeyIntent({ request, user, db, formData }: IntegrationActionContext) {
  const submission = parseWithZod(formData, { schema: renameKeySchema });
  if (submission.status !== "success") return data<ActionData>({ form: "rename", result: submission.reply() }, { status: 400 });
  const { id, name } = submission.value;
  const key = await renameKey(db, user.id, id, name);
  if (!key) return notFound();
  return redirect(back(key.integrationId), await toast(request, "API Key Renamed", `${key.prefix}… is now "${name}".`));
}

async function toggleIntent({ request, user, db, formData }: IntegrationActionContext) {
  const submission = parseWithZod(formData, { schema: toggleSchema });
  if (submission.status !== "success") return data({ message: "Invalid toggle" }, { status: 400 });
  const { integrationId, toggle, value } = submission.value;
  if (!(await toggleIntegration(db, user.id, submission.value))) return notFound();
  return redirect(back(integrationId), await toast(request, `${TOGGLE_LABEL[toggle]} turned ${value}`));
}

/** The id of the key or integration an intent acts on, or a 400 answer. */
function idOf(formData: FormData): string | Response {
  const submission = parseWithZod(formData, { schema: idSchema });
  return submission.status === "success" ? submission.value.id : Response.json({ message: "Missing id" }, { status: 400 });
}

async function revokeKeyIntent({ request, user, db, formData }: IntegrationActionContext) {
  const id = idOf(formData);
  if (id instanceof Response) return id;
  const key = await revokeKey(db, user.id, id);
  if (!key) return notFound();
  return redirect(back(key.integrationId), await toast(request, "API Key Revoked", `${key.name} (${key.prefix}…) no longer works.`));
}

async function deleteIntegrationIntent({ request, user, db, formData }: IntegrationActionContext) {
  const id = idOf(formData);
  if (id instanceof Response) return id;
  const deleted = await removeIntegration(db, user.id, id);
  if (!deleted) return notFound();
  return redirect("/integrations", await toast(request, "Integration Deleted", `${deleted.name} and its API keys were removed.`));
}

async function rotateSecretIntent({ request, user, db, formData }: IntegrationActionContext) {
  const id = idOf(formData);
  if (id instanceof Response) return id;
  const rotated = await rotateSecret(db, user.id, id);
  if (!rotated.ok && rotated.error === "not_found") return notFound();
  if (!rotated.ok) return redirect(back(id), await toast(request, "No webhook URL", "Set a webhook URL first.", "error"));
  return data<ActionData>({
    revealed: { kind: "webhook-secret", value: rotated.secret, label: `New webhook secret for "${rotated.name}"`, integrationId: id },
  });
}

export default function Integrations() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | { message: string } | undefined;
  const [params] = useSearchParams();
  const selected = d.integrations.find((i) => i.id === d.selectedId) ?? null;
  const dialog = params.get("dialog");
  const revealed = actionData && "revealed" in actionData ? actionData.revealed : null;
  const integrationResult = actionData && "form" in actionData && actionData.form === "integration" ? actionData.result : undefined;
  const keyResult = actionData && "form" in actionData && actionData.form === "key" ? actionData.result : undefined;
  const renameResult = actionData && "form" in actionData && actionData.form === "rename" ? actionData.result : undefined;
  const campaignResult = actionData && "form" in actionData && actionData.form === "campaign" ? actionData.result : undefined;
  const renaming = params.get("rename");
  const here = selected ? `/integrations?integration=${selected.id}` : "/integrations";

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
          {d.planName ? `Your ${d.planName} plan does not include API access.` : "You have no active plan."} Keys can read your jobs and usage; submitting
          scrubs and adding numbers through the API needs the Business or Premium plan.{" "}
          <Link to="/pricing" className="font-medium underline">
            See plans
          </Link>
        </p>
      )}

      <Card title="Integrations" id="integrations-title">
        {d.integrations.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-600">No integrations yet. Create one to get an API key.</p>
        ) : (
          <DataTable
            headerCellClass="py-2 pr-4"
            columns={[
              { label: "Name" },
              { label: "Container" },
              { label: "Webhook" },
              { label: "API Keys" },
              { label: "Last Used" },
              { label: "Status" },
              { label: <span className="sr-only">Actions</span> },
            ]}
          >
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
                <td className="py-3 pr-4 text-slate-700">
                  <When iso={i.lastUsedAt} />
                </td>
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

          <KeysCard selected={selected} keys={d.keys} renaming={renaming} renameResult={renameResult} keyResult={keyResult} />
        </div>
      )}

      <DialersCard d={d.dialers} here={here} lastResult={campaignResult} />

      <DeliveriesAndDocs d={d} />

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
          initial={{
            id: selected.id,
            name: selected.name,
            description: selected.description,
            containerId: selected.containerId,
            webhookUrl: selected.webhookUrl,
          }}
        />
      ) : null}
    </div>
  );
}
