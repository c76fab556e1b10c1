import type { ExemptionsView } from "~/models/purge.server";
import { formatNumber } from "~/utils/format";

const BASES = [
  { key: "purchase", label: "Purchase", note: "within 18 months" },
  { key: "inquiry", label: "Inquiry", note: "within 3 months" },
  { key: "consent", label: "Written consent", note: "dated before the purge" },
] as const;

/**
 * The results screen's exemptions (decision 161): the good numbers on the DNC list that each basis let through,
 * the list's version and the instant they were judged at. Plain HTML: readable at 390 px, no script needed.
 */
export function ExemptionCounts({ exemptions }: { exemptions: ExemptionsView }) {
  return (
    <section className="mt-6" data-testid="exemption-counts" aria-labelledby="exemption-counts-title">
      <h3 id="exemption-counts-title" className="text-sm font-semibold">
        Exemptions applied
      </h3>
      <p className="text-xs break-words text-slate-500">
        {exemptions.name}, version {exemptions.version}, at {exemptions.at.replace("T", " ").replace("Z", " UTC")}. These good numbers are on a
        do-not-call list; the Good file's exemption column says why each may be called and until when.
      </p>
      <div className="mt-3 grid gap-3 sm:grid-cols-3">
        {BASES.map((b) => (
          <div key={b.key} className="rounded-lg border border-slate-200 p-4" data-testid={`exemption-${b.key}`}>
            <p className="text-sm font-medium text-slate-700">{b.label}</p>
            <p className="text-2xl font-semibold tabular-nums" data-testid={`exemption-${b.key}-value`}>
              {formatNumber(exemptions.byBasis[b.key])}
            </p>
            <p className="text-xs text-slate-500">{b.note}</p>
          </div>
        ))}
      </div>
    </section>
  );
}
