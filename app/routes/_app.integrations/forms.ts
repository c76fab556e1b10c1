import { z } from "zod";

/** Forms of the Integrations page (shared by the action and the browser). */

const webhookUrl = z
  .string()
  .trim()
  .max(2000, "Webhook URL is too long")
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === "https:" || u.protocol === "http:";
    } catch {
      return false;
    }
  }, "Enter a valid URL starting with https:// or http://")
  .optional();

export const integrationSchema = z.object({
  intent: z.enum(["create-integration", "update-integration"]),
  integrationId: z.string().optional(),
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(100, "Name must be at most 100 characters"),
  description: z.string().trim().max(500, "Description must be at most 500 characters").optional(),
  containerId: z
    .string()
    .regex(/^\d{1,10}$/, "Choose one of your containers")
    .optional(),
  webhookUrl,
});

export const createKeySchema = z.object({
  intent: z.literal("create-key"),
  integrationId: z.string({ error: "Choose an integration" }).min(1, "Choose an integration"),
  name: z.string({ error: "Key name is required" }).trim().min(1, "Key name is required").max(100, "Key name must be at most 100 characters"),
});

export const TOGGLES = ["webhook_enabled", "rate_limit_enabled", "auto_retry_enabled"] as const;

export const toggleSchema = z.object({
  intent: z.literal("toggle"),
  integrationId: z.string().min(1),
  toggle: z.enum(TOGGLES),
  value: z.enum(["on", "off"]),
});

export const idSchema = z.object({
  intent: z.enum(["revoke-key", "delete-integration", "rotate-secret"]),
  id: z.string().min(1),
});

export const renameKeySchema = z.object({
  intent: z.literal("rename-key"),
  id: z.string().min(1),
  name: z.string({ error: "Key name is required" }).trim().min(1, "Key name is required").max(100, "Key name must be at most 100 characters"),
});

/** A key or secret the action shows once. */
export type Revealed = {
  kind: "api-key" | "webhook-secret";
  value: string;
  label: string;
  integrationId: string;
  /** A new integration with a webhook URL: its signing secret, shown together with the first key. */
  secret?: string;
};

/** A dialer campaign's settings (issue #48): its container and exemption list for the compatible scrub. */
export const campaignSchema = z.object({
  intent: z.literal("save-campaign"),
  campaignId: z
    .string({ error: "Campaign ID is required" })
    .trim()
    .min(1, "Campaign ID is required")
    .max(100, "Campaign ID must be at most 100 characters")
    .regex(/^[^,"'\\|\s]+$/, "Use the campaign ID exactly as the dialer sends it (no spaces, commas, quotes or bars)"),
  containerId: z
    .string()
    .regex(/^\d{1,10}$/, "Choose one of your containers")
    .optional(),
  exemptionListId: z
    .string()
    .regex(/^\d{1,10}$/, "Choose one of your exemption lists")
    .optional(),
});

export const deleteCampaignSchema = z.object({ intent: z.literal("delete-campaign"), campaignId: z.string().trim().min(1).max(100) });
