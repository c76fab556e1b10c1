/** Screen texts of /containers and /dnc (data-purging.md §2, §8: word for word), shared by server and browser. */

/** `changes`: an FTC change list (additions and deletions in one load). */
export type LoadMode = "add" | "remove" | "replace" | "changes";

export const CONTAINER_TEXT = {
  title: "Storage Containers",
  empty: "No containers found",
  loading: "Loading containers...",
  loadFailed: "Failed to load containers from server.",
  categoriesFailed: "Failed to load categories from server.",
  categoryCreated: "Category Created",
  categoryFailed: "Failed to create category. Please try again.",
  containerCreated: "Container Created",
  containerFailed: "Failed to create container.",
  containerUpdated: "Container Updated",
  updateFailed: "Failed to update container.",
  numbersAdded: "Numbers Added",
  addFailed: "Failed to add numbers.",
} as const;

export const DNC_ACCESS_MESSAGE = "You don't have permission to access DNC Management.";

export const DNC_TEXT = {
  title: "DNC Management",
  added: "Numbers Added Successfully",
  addedText: "Numbers have been added to the DNC store.",
  updated: "DNC List Updated",
  addFailed: "Failed to add numbers.",
  updateFailed: "Failed to update DNC list.",
  loadFailed: "Failed to load DNC lists from server.",
} as const;

/** "3 numbers added, 1 already present, 2 invalid (…)." for toasts. */
export function describeLoad(o: { added: number; alreadyPresent: number; removed: number; invalid: number; notPresent?: number }, mode: LoadMode): string {
  const f = (n: number) => n.toLocaleString("en-US");
  const parts: string[] = [];
  if (mode === "remove") parts.push(`${f(o.removed)} ${o.removed === 1 ? "number" : "numbers"} removed`);
  else if (mode === "changes") {
    parts.push(`${f(o.added)} ${o.added === 1 ? "addition" : "additions"} applied`);
    if (o.alreadyPresent) parts.push(`${f(o.alreadyPresent)} already present`);
    parts.push(`${f(o.removed)} ${o.removed === 1 ? "deletion" : "deletions"} applied`);
    if (o.notPresent) parts.push(`${f(o.notPresent)} not on the list`);
  } else {
    if (mode === "replace") parts.push(`list replaced`);
    parts.push(`${f(o.added)} ${o.added === 1 ? "number" : "numbers"} added`);
    if (o.alreadyPresent) parts.push(`${f(o.alreadyPresent)} already present`);
  }
  if (o.invalid) parts.push(`${f(o.invalid)} invalid`);
  const s = parts.join(", ");
  return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
}

/** The toast for a finished DNC load (add: the spec's texts; remove/replace: DNC List Updated with counts). */
export function dncDoneToast(mode: LoadMode, counts: { added: number; alreadyPresent: number; removed: number; invalid: number }) {
  if (mode === "add" && counts.added + counts.alreadyPresent === 0) {
    return {
      kind: "error" as const,
      title: DNC_TEXT.addFailed,
      description: counts.invalid ? `No valid phone numbers found: ${counts.invalid.toLocaleString("en-US")} invalid.` : "No phone numbers found in the file.",
    };
  }
  return mode === "add"
    ? { kind: "success" as const, title: DNC_TEXT.added, description: DNC_TEXT.addedText }
    : { kind: "success" as const, title: DNC_TEXT.updated, description: describeLoad(counts, mode) };
}
