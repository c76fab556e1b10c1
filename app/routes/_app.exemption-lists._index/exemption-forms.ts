import { z } from "zod";
import type { HasFile } from "~/components/lists/list-forms";
import { uploadMethod } from "~/components/lists/list-forms";

/*
 * The exemption-list forms of /exemption-lists (decision 161), one zod schema each, shared by the action and the
 * dialogs. The rows themselves (phone,basis,date) are checked by the engine's parser on the server, which names
 * every bad line; these schemas check only that something was given.
 */

export const EXEMPTION_MESSAGES = {
  nameRequired: "Exemption list name is required",
  rowsRequired: "Enter at least one phone,basis,date row.",
  noFile: "You must upload a CSV file with phone,basis,date rows.",
} as const;

type RowsInput = { method?: "manual" | "csv"; rows?: string; file?: unknown; uploadToken?: unknown };

function withRows<T extends z.ZodType<RowsInput>>(schema: T, hasFile: HasFile) {
  return schema
    .refine((v) => v?.method === "csv" || (v?.rows ?? "").trim() !== "", { path: ["rows"], when: () => true, message: EXEMPTION_MESSAGES.rowsRequired })
    .refine((v) => v?.method !== "csv" || hasFile({ file: v?.file, uploadToken: v?.uploadToken }), {
      path: ["file"],
      when: () => true,
      message: EXEMPTION_MESSAGES.noFile,
    });
}

const rowsFields = {
  method: uploadMethod,
  rows: z.string().optional(),
  file: z.any().optional(),
  uploadToken: z.string().optional(),
};

export const createExemptionsSchema = (hasFile: HasFile) =>
  withRows(
    z.object({
      intent: z.literal("create-exemptions"),
      name: z
        .string({ error: EXEMPTION_MESSAGES.nameRequired })
        .trim()
        .min(1, EXEMPTION_MESSAGES.nameRequired)
        .max(100, "Exemption list name must be at most 100 characters"),
      description: z
        .string()
        .trim()
        .max(500, "Description must be at most 500 characters")
        .optional()
        .transform((v) => v ?? ""),
      ...rowsFields,
    }),
    hasFile,
  );

export const loadExemptionsSchema = (hasFile: HasFile) =>
  withRows(
    z.object({
      intent: z.literal("load-exemptions"),
      id: z.string({ error: "Missing exemption list" }),
      mode: z.enum(["add", "replace"]).default("add"),
      ...rowsFields,
    }),
    hasFile,
  );
