import { z } from "zod";
import { MAX_OPT_OUT_SUBJECT, MAX_OPT_OUT_WORDS, OPT_OUT_CHANNELS } from "scrub-service/domain";

/*
 * The containers screen's opt-out forms (issue #47, decision 195), shared by the actions (server) and the dialogs
 * (browser). The record itself is checked by the engine's one opt-out check (checkOptOut) in the action: these only
 * say what a field must hold before it is sent.
 */

export const OPT_OUT_MESSAGES = {
  numberRequired: "Phone number is required",
  receivedRequired: "When it was received is required",
  channelRequired: "Choose how it was received",
  wordsRequired: "The words received are required",
  noFile: "Choose a CSV file",
} as const;

export const CHANNEL_LABELS: Record<(typeof OPT_OUT_CHANNELS)[number], string> = {
  call: "Call",
  text: "Text message",
  "e-mail": "E-mail",
  web: "Web form",
  "in-person": "In person",
};

export const recordOptOutSchema = z.object({
  intent: z.literal("record-opt-out"),
  number: z.string({ error: OPT_OUT_MESSAGES.numberRequired }).trim().min(1, OPT_OUT_MESSAGES.numberRequired),
  receivedLocal: z.string({ error: OPT_OUT_MESSAGES.receivedRequired }).trim().min(1, OPT_OUT_MESSAGES.receivedRequired),
  receivedZone: z.string().trim().optional(),
  channel: z.enum(OPT_OUT_CHANNELS, { error: OPT_OUT_MESSAGES.channelRequired }),
  words: z
    .string({ error: OPT_OUT_MESSAGES.wordsRequired })
    .trim()
    .min(1, OPT_OUT_MESSAGES.wordsRequired)
    .max(MAX_OPT_OUT_WORDS, `The words must be at most ${MAX_OPT_OUT_WORDS} characters`),
  subject: z.string().trim().max(MAX_OPT_OUT_SUBJECT, `The subject must be at most ${MAX_OPT_OUT_SUBJECT} characters`).optional(),
});

export const importOptOutsSchema = (hasFile: (v: { file?: unknown }) => boolean) =>
  z.object({ intent: z.literal("import-opt-outs"), file: z.unknown().optional() }).refine((v) => hasFile({ file: v.file }), {
    path: ["file"],
    message: OPT_OUT_MESSAGES.noFile,
  });
