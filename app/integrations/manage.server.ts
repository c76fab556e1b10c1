import type { Kysely, Transaction } from "kysely";
import type { Database } from "db/schema";
import {
  countIntegrations,
  createApiKey,
  createIntegration,
  deleteIntegration,
  findOwnContainer,
  forgetLookupKeys,
  getIntegration,
  listApiKeys,
  MAX_INTEGRATIONS_PER_USER,
  renameApiKey,
  revokeApiKey,
  rotateWebhookSecret,
  setIntegrationToggle,
  updateIntegration,
  type ApiKeySummary,
  type ToggleName,
} from "~/models/integration.server";
import { recordAudit } from "~/models/user.server";
import { webhookUrlProblem } from "~/integrations/webhook-url.server";

/**
 * The Integrations page's use cases: each one's writes and audit rows commit together (one transaction), and the
 * lookup-key cache is forgotten after the commit. The route parses the form and turns the outcome into a reply.
 */

type Db = Kysely<Database>;

async function committed<T>(db: Db, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const result = await db.transaction().execute(fn);
  forgetLookupKeys(); // after the commit: a lookup in between would keep the old row
  return result;
}

export interface IntegrationInput {
  name: string;
  description: string;
  containerId: number | null;
  webhookUrl: string | null;
}

/** Field problems of an integration form the schema cannot see (the URL's target, the container's owner). */
export async function integrationFieldErrors(db: Db, userId: string, input: IntegrationInput): Promise<Record<string, string[]>> {
  const fieldErrors: Record<string, string[]> = {};
  const urlProblem = input.webhookUrl ? webhookUrlProblem(input.webhookUrl) : null;
  if (urlProblem) fieldErrors.webhookUrl = [urlProblem];
  if (input.containerId !== null && !(await findOwnContainer(db, userId, input.containerId))) fieldErrors.containerId = ["Choose one of your containers"];
  return fieldErrors;
}

export type CreatedIntegration = { ok: true; id: string; webhookSecret: string | null; key: string } | { ok: false; error: "too_many" };

/** Creates an integration with its first key ("Default key", shown once) and both audit rows, in one transaction. */
export async function createIntegrationWithKey(db: Db, userId: string, input: IntegrationInput): Promise<CreatedIntegration> {
  return committed(db, async (trx) => {
    if ((await countIntegrations(trx, userId)) >= MAX_INTEGRATIONS_PER_USER) return { ok: false, error: "too_many" } as const;
    const created = await createIntegration(trx, { userId, ...input });
    await recordAudit(trx, { actorId: userId, action: "integration.create", targetType: "integration", targetId: created.id, details: { name: input.name } });
    const key = await createApiKey(trx, { userId, integrationId: created.id, name: "Default key" });
    if ("error" in key) throw new Error(`could not create the first key: ${key.error}`);
    await recordAudit(trx, { actorId: userId, action: "api_key.create", targetType: "api_key", targetId: key.id, details: { integrationId: created.id } });
    return { ok: true, id: created.id, webhookSecret: created.webhookSecret, key: key.key } as const;
  });
}

/** Saves an integration's settings; a new or changed webhook URL gets a new secret (returned once). Null: not the user's. */
export async function saveIntegration(db: Db, userId: string, id: string, input: IntegrationInput): Promise<{ webhookSecret: string | null } | null> {
  return committed(db, async (trx) => {
    const updated = await updateIntegration(trx, { ...input, userId, id });
    if (!updated.updated) return null;
    await recordAudit(trx, { actorId: userId, action: "integration.update", targetType: "integration", targetId: id, details: { name: input.name } });
    return { webhookSecret: updated.webhookSecret };
  });
}

/** A new key for one of the user's integrations, with its audit row. */
export async function addApiKey(db: Db, userId: string, integrationId: string, name: string) {
  return committed(db, async (trx) => {
    const created = await createApiKey(trx, { userId, integrationId, name });
    if ("error" in created) return created;
    await recordAudit(trx, { actorId: userId, action: "api_key.create", targetType: "api_key", targetId: created.id, details: { integrationId, name } });
    return created;
  });
}

async function ownKey(db: Db, userId: string, id: string): Promise<ApiKeySummary | undefined> {
  return (await listApiKeys(db, userId)).find((k) => k.id === id);
}

/** Renames one of the user's keys; the key as it was, or null when it is not theirs. */
export async function renameKey(db: Db, userId: string, id: string, name: string): Promise<ApiKeySummary | null> {
  return committed(db, async (trx) => {
    const key = await ownKey(trx, userId, id);
    if (!key || !(await renameApiKey(trx, { id, userId, name }))) return null;
    await recordAudit(trx, { actorId: userId, action: "api_key.rename", targetType: "api_key", targetId: id, details: { name } });
    return key;
  });
}

/** Revokes one of the user's keys; the key as it was, or null when it is not theirs (or already revoked). */
export async function revokeKey(db: Db, userId: string, id: string): Promise<ApiKeySummary | null> {
  return committed(db, async (trx) => {
    const key = await ownKey(trx, userId, id);
    if (!key || !(await revokeApiKey(trx, { id, userId }))) return null;
    await recordAudit(trx, { actorId: userId, action: "api_key.revoke", targetType: "api_key", targetId: id });
    return key;
  });
}

export async function toggleIntegration(db: Db, userId: string, input: { integrationId: string; toggle: ToggleName; value: "on" | "off" }): Promise<boolean> {
  const { integrationId, toggle, value } = input;
  return committed(db, async (trx) => {
    if (!(await setIntegrationToggle(trx, { id: integrationId, userId, toggle, on: value === "on" }))) return false;
    await recordAudit(trx, { actorId: userId, action: "integration.toggle", targetType: "integration", targetId: integrationId, details: { toggle, value } });
    return true;
  });
}

/** Deletes one of the user's integrations (its keys revoked, pending deliveries failed); its name, or null. */
export async function removeIntegration(db: Db, userId: string, id: string): Promise<{ name: string } | null> {
  return committed(db, async (trx) => {
    const integration = await getIntegration(trx, { id, userId });
    if (!integration || !(await deleteIntegration(trx, { id, userId }))) return null;
    await recordAudit(trx, { actorId: userId, action: "integration.delete", targetType: "integration", targetId: id });
    return { name: integration.name };
  });
}

export type RotatedSecret = { ok: true; name: string; secret: string } | { ok: false; error: "not_found" | "no_webhook" };

export async function rotateSecret(db: Db, userId: string, id: string): Promise<RotatedSecret> {
  return committed(db, async (trx) => {
    const integration = await getIntegration(trx, { id, userId });
    if (!integration) return { ok: false, error: "not_found" } as const;
    const secret = await rotateWebhookSecret(trx, { id, userId });
    if (!secret) return { ok: false, error: "no_webhook" } as const;
    await recordAudit(trx, { actorId: userId, action: "integration.rotate_secret", targetType: "integration", targetId: id });
    return { ok: true, name: integration.name, secret } as const;
  });
}
