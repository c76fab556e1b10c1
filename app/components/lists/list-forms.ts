import { z } from "zod";
import { manualEntryError, PHONE_ENTRY_MESSAGES } from "~/intake/typed-numbers";
import { UPLOAD_ID_RE } from "~/utils/ids";
import { LIST_TYPES, parseOptionalRegistryDate } from "scrub-service/domain";

/*
 * The forms of /containers and /dnc, one zod schema each, shared by the actions (server) and the dialogs
 * (browser). `hasFile` tells whether the form carries a non-empty file: in the browser a File, on the server
 * a file the upload handler stored (a string posted as "file" is never taken for one).
 */
export type HasFile = (value: { file?: unknown; uploadToken?: unknown }) => boolean;

/** In the browser: a chosen file, or the token of a file already uploaded with progress. */
export const browserHasFile: HasFile = ({ file, uploadToken }) =>
  (typeof File !== "undefined" && file instanceof File && file.size > 0 && file.name !== "") ||
  (typeof uploadToken === "string" && UPLOAD_ID_RE.test(uploadToken));

export const CONTAINER_MESSAGES = {
  categoryNameRequired: "Category name is required",
  containerNameRequired: "Container name is required",
  categoryRequired: "Please select a category",
} as const;

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((v) => v ?? "");

export const uploadMethod = z.enum(["manual", "csv"]).default("manual");
export type UploadMethod = z.infer<typeof uploadMethod>;

type NumbersInput = { method?: UploadMethod; numbers?: string; file?: unknown; uploadToken?: unknown };

/**
 * Manual numbers or a file, checked even when other fields failed (`when`), so every message shows at once.
 */
function withNumbers<T extends z.ZodType<NumbersInput>>(schema: T, hasFile: HasFile) {
  const method = (v: NumbersInput) => (v?.method === "csv" ? "csv" : "manual");
  return schema
    .refine((v) => method(v) !== "manual" || manualEntryError(v.numbers) === null, {
      path: ["numbers"],
      when: () => true,
      error: (iss) => manualEntryError((iss.input as NumbersInput)?.numbers) ?? PHONE_ENTRY_MESSAGES.noneValid,
    })
    .refine((v) => method(v) !== "csv" || hasFile({ file: v?.file, uploadToken: v?.uploadToken }), {
      path: ["file"],
      when: () => true,
      message: PHONE_ENTRY_MESSAGES.noFile,
    });
}

export const categorySchema = z.object({
  intent: z.literal("create-category"),
  name: z
    .string({ error: CONTAINER_MESSAGES.categoryNameRequired })
    .trim()
    .min(1, CONTAINER_MESSAGES.categoryNameRequired)
    .max(100, "Category name must be at most 100 characters"),
  description: optionalText(500, "Description"),
});

const containerFields = {
  name: z
    .string({ error: CONTAINER_MESSAGES.containerNameRequired })
    .trim()
    .min(1, CONTAINER_MESSAGES.containerNameRequired)
    .max(100, "Container name must be at most 100 characters"),
  categoryId: z.string({ error: CONTAINER_MESSAGES.categoryRequired }).trim().min(1, CONTAINER_MESSAGES.categoryRequired),
  description: optionalText(500, "Description"),
};

export const createContainerSchema = (hasFile: HasFile) =>
  withNumbers(
    z.object({
      intent: z.literal("create-container"),
      ...containerFields,
      method: uploadMethod,
      numbers: z.string().optional(),
      file: z.any().optional(),
      uploadToken: z.string().optional(),
    }),
    hasFile,
  );

export const editContainerSchema = z.object({
  intent: z.literal("edit-container"),
  id: z.string({ error: "Missing container" }),
  ...containerFields,
});

export const addNumbersSchema = (hasFile: HasFile) =>
  withNumbers(
    z.object({
      intent: z.literal("add-numbers"),
      id: z.string({ error: "Missing container" }),
      method: uploadMethod,
      numbers: z.string().optional(),
      file: z.any().optional(),
      uploadToken: z.string().optional(),
    }),
    hasFile,
  );

export const dncTypeField = z.enum(LIST_TYPES.map((t) => String(t.type)) as [string, ...string[]], { error: "Choose a suppression type" });

/**
 * `checkRegistryDate`: the server checks the stated registry date (its refusal comes back as the field's
 * message); the browser leaves it to the server (checked there, the message did not show with JavaScript on).
 */
export const dncLoadSchema = (hasFile: HasFile, checkRegistryDate = true) =>
  withNumbers(
    z.object({
      intent: z.literal("load"),
      type: dncTypeField,
      mode: z.enum(["add", "remove", "replace", "changes"]).default("add"),
      method: uploadMethod,
      numbers: z.string().optional(),
      file: z.any().optional(),
      uploadToken: z.string().optional(),
      /** The DNC list only: the day of the FTC download (empty: the list keeps its release; a first load takes the load time). Checked by parseRegistryDate. */
      registryDate: z
        .string()
        .max(40)
        .optional()
        .superRefine((v, ctx) => {
          if (!checkRegistryDate) return;
          const r = parseOptionalRegistryDate(v);
          if (!r.ok) ctx.addIssue({ code: "custom", message: r.message });
        }),
    }),
    hasFile,
  );

export const dncEditSchema = z.object({
  intent: z.literal("edit"),
  type: dncTypeField,
  description: optionalText(500, "Description"),
});
