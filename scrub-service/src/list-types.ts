/**
 * The list-type registry: every admin suppression list, the suppression type a scrub is started with, which
 * lists each type checks, and the reasons and labels the screens, the API, the CLI and the engine show.
 * Pure data without imports, so the browser bundle may import it as well as the engine (docs/decisions/095).
 *
 * Adding a list type (a state DNC list, say) = one entry below + its data: a migration that inserts its
 * `lists` row (kind, suppression_type = `type`, name = `name`). The database admits any short lower-case kind
 * (migration 0017) and the DNC page draws one card per entry, titled `name`, in the colours of `tone`.
 */

/** Card colours a list type may take on the DNC page (app/components/lists/list-tones.ts has one palette each). */
export const LIST_TONES = ["blue", "red", "amber", "green", "violet", "slate"] as const;
export type ListTone = (typeof LIST_TONES)[number];

interface ListTypeShape {
  kind: string;
  type: number;
  suppressionType: string;
  name: string;
  tone: ListTone;
  label: string;
  description: string;
  includes: readonly string[];
  reasonLabel: string;
}

export const LIST_TYPES = [
  {
    /** lists.kind of the admin list; also the reason a row on it gets in bad.csv. */
    kind: "litigation",
    /** The DNC page's type (`?type=0`) and lists.suppression_type. */
    type: 0,
    /** The suppression type named after this list (scrub_jobs.suppression_type, the API's suppression_type). */
    suppressionType: "LitigationOnly",
    /** The list's own name (DNC page card title, lists.name); `label` names the suppression type. */
    name: "Litigation List",
    tone: "blue",
    label: "Litigation Only",
    description: "Removes numbers on the litigation list (known TCPA litigators).",
    /** The lists a scrub of this suppression type checks, in the order that gives the reason. */
    includes: ["litigation"],
    reasonLabel: "Litigation list",
  },
  {
    kind: "dnc",
    type: 1,
    suppressionType: "DNCAndLitigation",
    name: "DNC List",
    tone: "red",
    label: "DNC and Litigation",
    description: "Removes numbers on the do-not-call list and on the litigation list.",
    includes: ["litigation", "dnc"],
    reasonLabel: "DNC list",
  },
] as const satisfies readonly ListTypeShape[];

export type ListType = (typeof LIST_TYPES)[number];
/** An admin list's kind. */
export type AdminListKind = ListType["kind"];
/** Every kind of `lists` row: the admin lists and the customers' containers. */
export type ListKind = AdminListKind | "container";
export type SuppressionTypeName = ListType["suppressionType"];
export type DncType = ListType["type"];

/** The reason for a number on the customer's own container. */
export const CONTAINER_REASON = { reason: "container", label: "Your container" } as const;

export const ADMIN_LIST_KINDS = LIST_TYPES.map((t) => t.kind) as AdminListKind[];
export const SUPPRESSION_TYPE_NAMES = LIST_TYPES.map((t) => t.suppressionType) as [SuppressionTypeName, ...SuppressionTypeName[]];
/**
 * The suppression type a purge starts with: the one that checks the most lists (today DNC and Litigation), so a
 * customer who does not change it gets every check, never fewer (decision 124).
 */
export const DEFAULT_SUPPRESSION_TYPE: SuppressionTypeName = LIST_TYPES.reduce<ListType>(
  (widest, t) => (t.includes.length > widest.includes.length ? t : widest),
  LIST_TYPES[0],
).suppressionType;

/** The suppression types whose scrubs check this admin list ("Litigation Only, DNC and Litigation"). */
export function suppressionTypesChecking(kind: AdminListKind): ListType[] {
  return LIST_TYPES.filter((t) => (t.includes as readonly string[]).includes(kind));
}

export function isAdminListKind(value: unknown): value is AdminListKind {
  return LIST_TYPES.some((t) => t.kind === value);
}

export function isSuppressionType(value: unknown): value is SuppressionTypeName {
  return LIST_TYPES.some((t) => t.suppressionType === value);
}

export function listTypeOfKind(kind: AdminListKind): ListType {
  return LIST_TYPES.find((t) => t.kind === kind)!;
}

export function listTypeOfSuppression(name: SuppressionTypeName): ListType {
  return LIST_TYPES.find((t) => t.suppressionType === name)!;
}

/** The list type of a DNC page type ("0", 1, …), or null. */
export function listTypeOfDncType(value: unknown): ListType | null {
  return LIST_TYPES.find((t) => String(t.type) === String(value)) ?? null;
}

/** The admin lists a scrub of this suppression type checks, in order. */
export function listsOfSuppression(name: SuppressionTypeName): readonly AdminListKind[] {
  return listTypeOfSuppression(name).includes;
}

/** "LitigationOnly or DNCAndLitigation" (error messages). */
export function suppressionTypeChoices(): string {
  return orList(SUPPRESSION_TYPE_NAMES);
}

/** "litigation, dnc" … as "a, b or c". */
export function orList(items: readonly string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
