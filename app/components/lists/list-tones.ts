import type { ListTone } from "scrub-service/domain";

/**
 * The DNC page's card colours, one palette per tone a list type may name in the registry
 * (scrub-service/src/list-types.ts): a new list type picks a tone and needs no change here or on /dnc.
 * Whole class names, so Tailwind finds them in this file.
 */
export const LIST_TONE_CLASSES: Record<ListTone, { ring: string; badge: string; bar: string }> = {
  blue: { ring: "border-blue-200", badge: "bg-blue-100 text-blue-800 ring-blue-200", bar: "bg-blue-600" },
  red: { ring: "border-red-200", badge: "bg-red-100 text-red-800 ring-red-200", bar: "bg-red-600" },
  amber: { ring: "border-amber-200", badge: "bg-amber-100 text-amber-900 ring-amber-200", bar: "bg-amber-500" },
  green: { ring: "border-green-200", badge: "bg-green-100 text-green-800 ring-green-200", bar: "bg-green-600" },
  violet: { ring: "border-violet-200", badge: "bg-violet-100 text-violet-800 ring-violet-200", bar: "bg-violet-600" },
  slate: { ring: "border-slate-300", badge: "bg-slate-100 text-slate-800 ring-slate-300", bar: "bg-slate-600" },
};
