/**
 * A scrub order: what a scrub is asked to do, parsed once where it enters (the purge wizard's action, the API's
 * POST /api/v1/scrubs, the CLI, the scrub service's POST /v1/jobs) and passed down whole (issue #45, decision 183).
 * Pure: zod and the domain's own modules, no I/O and no Node built-ins (safe in the browser bundle).
 *
 * One evaluation instant, `evaluatedAt`: the instant the calling columns (decision 131) and the exemptions
 * (decision 161) are evaluated at; null = the scrub's start. It is allowed only with the calling window or an
 * exemption list (one rule, below). Its bounds on the web and the API (not past, not beyond the lists' validity:
 * decision 174) are the app's intake's, which reads the lists.
 *
 * The order names its container and exemption list by id; that they belong to its owner is checked once, where the
 * job row is made (`createScrubJob`, the engine's intake that every path passes).
 */
import { z } from "zod";
import { SUPPRESSION_TYPE_NAMES } from "./list-types";
import { parseInstant } from "./calling/instant";
import { CALL_PURPOSES } from "./calling/caps";
import { DEFAULT_SUBJECT, MAX_CALL_TEXT } from "./calls/validate";

/** A list's id as a form or a query string sends it ("12"; "" = none) or as a number. */
const listId = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((v, ctx) => {
    if (v == null || v === "") return null;
    const n = typeof v === "number" ? v : /^\d{1,10}$/.test(v.trim()) ? Number(v.trim()) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 0 || n > 2_147_483_647) {
      ctx.addIssue({ code: "custom", message: "must be a list id" });
      return z.NEVER;
    }
    return n;
  });

/** Text where "" means none. */
const optionalText = z
  .string()
  .nullish()
  .transform((v) => v || null);

const fields = z.object({
  /** The owner: the account the job, its container and its exemption list belong to. */
  userId: z.string().min(1),
  /** The file the scrub reads (under DATA_DIR/uploads, or where the CLI found it). */
  inputPath: z.string().min(1),
  /** The name the job is shown under. */
  fileName: z.string().min(1),
  suppressionType: z.enum(SUPPRESSION_TYPE_NAMES),
  /** The phone column's header; null lets the engine pick the file's phone column; "" means none was chosen. */
  columnName: z.string().nullable().default(null),
  /** The workbook sheet to read (an .xlsx); null: the first. */
  sheet: optionalText,
  /** The owner's category (the app's; it checks it). */
  categoryId: optionalText,
  /** The owner's container whose numbers are suppressed too. */
  containerId: listId,
  /** The state filter: two-letter codes (the app's intake checks them against the plan); empty = none. */
  states: z.array(z.string()).default([]),
  /** Append time_zone, callable_now, next_call_at, calling_note to good.csv (decisions 131, 180). */
  callingWindow: z.boolean().default(false),
  /** The owner's exemption list, applied at evaluatedAt (decision 161). */
  exemptionListId: listId,
  /** The evaluation instant as sent: an ISO-8601 date-time with its offset; null/absent = the scrub's start. */
  evaluatedAt: z.string().nullable().default(null),
  /**
   * Why the calls are made (decision 191): `telemarketing` (the states' solicitation caps) or `debt-collection`
   * (Regulation F and Massachusetts, per debt). The calling columns count the owner's calls against its caps.
   */
  purpose: z.enum(CALL_PURPOSES).default("telemarketing"),
  /** The subject (campaign) the scrub's calls are on, for the per-subject caps; the calls API's default subject. */
  subject: z
    .string()
    .max(MAX_CALL_TEXT)
    .nullish()
    .transform((v) => v || DEFAULT_SUBJECT),
  /** The header of the column holding each row's debt id (debt-collection only); null: no debt column. */
  debtColumn: optionalText,
});

/**
 * Why an order was refused: the instant without calling or exemptions, an instant that is not one, a purpose or debt
 * column without the calling window, a debt column without debt collection, or a field's shape.
 */
export type OrderRule = "instant-applies" | "instant-format" | "calls-apply" | "debt-applies" | "shape";

/**
 * The order, with its one rule: an evaluation instant only with the calling window or an exemption list (what it is
 * the instant of), checked before the instant's format, as every entry did.
 */
export const ScrubOrder = fields.transform((o, ctx) => {
  // the calls are counted in the calling columns (decision 191): a purpose or a debt column means nothing without them
  if (!o.callingWindow && (o.purpose !== "telemarketing" || o.debtColumn !== null)) {
    const path = o.debtColumn !== null ? "debtColumn" : "purpose";
    ctx.addIssue({ code: "custom", path: [path], message: "applies with the calling window only", params: { rule: "calls-apply" } });
    return z.NEVER;
  }
  if (o.debtColumn !== null && o.purpose !== "debt-collection") {
    ctx.addIssue({ code: "custom", path: ["debtColumn"], message: "applies with debt collection only", params: { rule: "debt-applies" } });
    return z.NEVER;
  }
  let evaluatedAt: Date | null = null;
  if (o.evaluatedAt !== null) {
    if (!o.callingWindow && o.exemptionListId === null) {
      ctx.addIssue({
        code: "custom",
        path: ["evaluatedAt"],
        message: "at applies with the calling window or an exemption list only",
        params: { rule: "instant-applies" },
      });
      return z.NEVER;
    }
    const at = parseInstant(o.evaluatedAt);
    if (!at.ok) {
      ctx.addIssue({ code: "custom", path: ["evaluatedAt"], message: at.message, params: { rule: "instant-format", text: o.evaluatedAt } });
      return z.NEVER;
    }
    evaluatedAt = new Date(at.ms);
  }
  return { ...o, evaluatedAt };
});

/** A parsed order. */
export type ScrubOrder = z.output<typeof ScrubOrder>;
/** An order as an entry hands it over (ids as sent, the instant as text). */
export type ScrubOrderInput = z.input<typeof ScrubOrder>;

/** How an entry names the instant and what it goes with, in the words its callers use. */
export interface OrderWords {
  at: string;
  calling: string;
  exemptions: string;
  /** What ends the "applies with … only" sentence. */
  end: string;
  /** The purpose, its debt-collection value and the debt column as the entry names them. */
  purpose: string;
  debtCollection: string;
  debtColumn: string;
}

export const ORDER_WORDS = {
  wizard: {
    at: "at",
    calling: "calling times",
    exemptions: "an exemption list",
    end: ".",
    purpose: "The purpose",
    debtCollection: "debt collection",
    debtColumn: "The debt id column",
  },
  api: {
    at: "at",
    calling: "calling_window=true",
    exemptions: "exemptions",
    end: "",
    purpose: "purpose",
    debtCollection: "purpose=debt-collection",
    debtColumn: "debt_column",
  },
  cli: {
    at: "--at",
    calling: "--calling-window",
    exemptions: "exemptions",
    end: " (the instant the calling columns and the exemptions are evaluated at).",
    purpose: "--purpose",
    debtCollection: "--purpose debt-collection",
    debtColumn: "--debt-column",
  },
  service: {
    at: "callingAt",
    calling: "callingWindow=1",
    exemptions: "exemptionListId",
    end: ".",
    purpose: "purpose",
    debtCollection: "purpose=debt-collection",
    debtColumn: "debtColumn",
  },
} as const satisfies Record<string, OrderWords>;

export type OrderProblem = { field: keyof ScrubOrderInput | null; rule: OrderRule; message: string };

/** The order, or its first problem worded for the entry (`words`). */
export function parseScrubOrder(input: ScrubOrderInput, words: OrderWords): { ok: true; order: ScrubOrder } | ({ ok: false } & OrderProblem) {
  const r = ScrubOrder.safeParse(input);
  if (r.success) return { ok: true, order: r.data };
  const issue = r.error.issues[0];
  const field = (issue.path[0] as keyof ScrubOrderInput | undefined) ?? null;
  const params = issue.code === "custom" ? (issue.params as { rule?: OrderRule; text?: string } | undefined) : undefined;
  if (params?.rule === "instant-applies") {
    return { ok: false, field, rule: "instant-applies", message: `${words.at} applies with ${words.calling} or ${words.exemptions} only${words.end}` };
  }
  if (params?.rule === "calls-apply") {
    const what = field === "debtColumn" ? words.debtColumn : words.purpose;
    return { ok: false, field, rule: "calls-apply", message: `${what} applies with ${words.calling} only${words.end ? "." : ""}` };
  }
  if (params?.rule === "debt-applies") {
    return { ok: false, field, rule: "debt-applies", message: `${words.debtColumn} applies with ${words.debtCollection} only${words.end ? "." : ""}` };
  }
  if (params?.rule === "instant-format") {
    const at = parseInstant(params.text ?? "", words.at);
    return { ok: false, field, rule: "instant-format", message: at.ok ? issue.message : at.message };
  }
  return { ok: false, field, rule: "shape", message: field ? `${String(field)}: ${issue.message}` : issue.message };
}
