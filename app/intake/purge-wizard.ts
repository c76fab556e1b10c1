import { z } from "zod";
import { DEFAULT_SUPPRESSION_TYPE, SUPPRESSION_LIST_TYPES, SUPPRESSION_TYPE_NAMES, type SuppressionTypeName } from "scrub-service/domain";
import { checkManualNumbers, MANUAL_MESSAGES } from "~/intake/typed-numbers";
import { UPLOAD_ID_RE, UUID_RE } from "~/utils/ids";

/**
 * The purge wizard's state and rules, shared by the server (loader/action) and the browser.
 * The whole state lives in the URL (and hidden form fields), so every step works with JavaScript off,
 * survives a reload and can be bookmarked; the uploaded file is referenced by its upload id.
 */

export const STEPS = [
  { n: 1, label: "Suppression Type" },
  { n: 2, label: "Choose Category" },
  { n: 3, label: "Select Container" },
  { n: 4, label: "Upload Data" },
  { n: 5, label: "Column Selection" },
  { n: 6, label: "Results" },
] as const;

export const SUPPRESSION_TYPES = SUPPRESSION_LIST_TYPES.map((t) => ({ value: t.suppressionType, label: t.label, description: t.description }));

export type SuppressionType = SuppressionTypeName;
export type UploadMode = "manual" | "csv";

export interface WizardState {
  step: number;
  type: SuppressionType;
  category: string;
  container: string;
  mode: UploadMode;
  upload: string;
  column: string;
  /** The workbook sheet read (an .xlsx; "" = the first). */
  sheet: string;
  states: string[];
  job: string;
  /** "Add calling times" (column step): good.csv gains the calling-window columns (decision 131). */
  calling: boolean;
  /** The exemption list chosen in the container step (decision 161); "" = none. */
  exemptions: string;
  /** With calling times: what the calls are for (decision 191), and for debt collection the file's debt id column ("" = none). */
  purpose: "telemarketing" | "debt-collection";
  debtColumn: string;
}

const stateSchema = z.object({
  step: z.coerce.number().int().min(1).max(6).catch(1),
  type: z.enum(SUPPRESSION_TYPE_NAMES).catch(DEFAULT_SUPPRESSION_TYPE),
  category: z.string().regex(UUID_RE).catch(""),
  container: z
    .string()
    .regex(/^\d{1,9}$/)
    .catch(""),
  exemptions: z
    .string()
    .regex(/^\d{1,9}$/)
    .catch(""),
  mode: z.enum(["manual", "csv"]).catch("csv"),
  upload: z.string().regex(UPLOAD_ID_RE).catch(""),
  column: z.string().max(500).catch(""),
  sheet: z.string().max(200).catch(""),
  job: z.string().regex(UUID_RE).catch(""),
  debtColumn: z.string().max(200).catch(""),
});

/** Reads the wizard state from URL search params or form data; anything malformed falls back to its default. */
export function parseWizardState(source: URLSearchParams | FormData): WizardState {
  const get = (k: string) => {
    const v = source.get(k);
    return typeof v === "string" ? v : undefined;
  };
  const base = stateSchema.parse({
    step: get("step") ?? 1,
    type: get("type"),
    category: get("category") ?? "",
    container: get("container") ?? "",
    exemptions: get("exemptions") ?? "",
    mode: get("mode"),
    upload: get("upload") ?? "",
    column: get("column") ?? "",
    sheet: get("sheet") ?? "",
    job: get("job") ?? "",
    debtColumn: get("debtColumn") ?? "",
  });
  const states = [
    ...new Set(
      source
        .getAll("state")
        .filter((s): s is string => typeof s === "string")
        .map((s) => s.trim().toUpperCase())
        .filter((s) => /^[A-Z]{2}$/.test(s)),
    ),
  ].sort();
  const calling = ["1", "on", "true"].includes(get("calling") ?? "");
  const purpose = get("purpose") === "debt-collection" ? "debt-collection" : "telemarketing";
  return { ...base, states, calling, purpose };
}

/** The URL of a wizard state (defaults left out to keep it short). */
export function wizardHref(state: WizardState, overrides: Partial<WizardState> = {}): string {
  const s = { ...state, ...overrides };
  const p = new URLSearchParams();
  p.set("step", String(s.step));
  p.set("type", s.type);
  if (s.category) p.set("category", s.category);
  if (s.container) p.set("container", s.container);
  if (s.exemptions) p.set("exemptions", s.exemptions);
  p.set("mode", s.mode);
  if (s.upload) p.set("upload", s.upload);
  if (s.sheet) p.set("sheet", s.sheet);
  if (s.column) p.set("column", s.column);
  for (const st of s.states) p.append("state", st);
  if (s.calling) p.set("calling", "1");
  if (s.purpose !== "telemarketing") p.set("purpose", s.purpose);
  if (s.debtColumn) p.set("debtColumn", s.debtColumn);
  if (s.job) p.set("job", s.job);
  return `/purge?${p}`;
}

/** Hidden fields for every part of the state except the ones the current step edits. */
export function hiddenFields(state: WizardState, omit: (keyof WizardState)[]): [string, string][] {
  const out: [string, string][] = [];
  const keys: (keyof WizardState)[] = ["type", "category", "container", "exemptions", "mode", "upload", "sheet", "column", "debtColumn", "job"];
  for (const k of keys) {
    if (omit.includes(k)) continue;
    const v = state[k];
    if (typeof v === "string" && v) out.push([k, v]);
  }
  if (!omit.includes("states")) for (const st of state.states) out.push(["state", st]);
  if (!omit.includes("calling") && state.calling) out.push(["calling", "1"]);
  if (!omit.includes("purpose") && state.purpose !== "telemarketing") out.push(["purpose", state.purpose]);
  return out;
}

/** Previous from Results goes back to Upload Data (manual) or Column Selection (CSV). */
export function previousStep(state: Pick<WizardState, "step" | "mode">): number {
  if (state.step === 6) return state.mode === "manual" ? 4 : 5;
  return Math.max(1, state.step - 1);
}

// ---------- manual entry (split and checked in ~/intake/typed-numbers) ----------

export const manualSchema = z.object({
  intent: z.literal("manual"),
  numbers: z
    .string({ error: MANUAL_MESSAGES.empty })
    .max(4_000_000, "Too much text: upload a CSV file instead.")
    .superRefine((v, ctx) => {
      const r = checkManualNumbers(v);
      if (!r.ok) ctx.addIssue({ code: "custom", message: r.message });
    }),
});

// ---------- CSV (messages of data-purging.md §5) ----------

export const CSV_MESSAGES = {
  noFile: "Please select a CSV file",
  noColumn: "Please select a column containing phone numbers",
  empty: "CSV file appears to be empty or has no data rows",
  columnMissing: (col: string) => `Column '${col}' not found in CSV file`,
  noPhones: (col: string) => `No phone numbers found in column '${col}'`,
  unreadable: "Error reading CSV file. Please check the file format.",
  headers: "Failed to parse CSV file headers.",
} as const;

/** Only the first 10 data rows are checked before a purge starts (spec §5, §9). */
export const PRECHECK_ROWS = 10;
