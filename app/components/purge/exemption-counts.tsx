import { LIST_TYPES } from "scrub-service/domain";
import type { BasisCounts, ExemptionsView } from "~/models/purge.server";
import { formatNumber } from "~/utils/format";

const BASES = [
  { key: "purchase", label: "Purchase" },
  { key: "inquiry", label: "Inquiry" },
  { key: "consent", label: "Written consent" },
] as const;

const OUTCOMES = [
  { key: "applied", label: "Applied" },
  { key: "expired", label: "Expired" },
  { key: "neverApplicable", label: "Never applicable" },
  { key: "notYet", label: "Dated after the instant" },
] as const;

/** Where a list's windows come from: "Federal" for the national registry, the state's name for a state list. */
export function windowPlace(kind: string): string {
  if (kind === "dnc") return "Federal";
  const t = LIST_TYPES.find((l) => l.kind === kind) as { name: string; state?: { stateName: string } } | undefined;
  return t?.state?.stateName ?? t?.name ?? kind;
}

/**
 * A basis's window on each list the scrub checked, in words: "Federal: within 18 months; Texas: within 12 months",
 * "Texas: no inquiry exemption" (0 months); consent has no end on any list.
 */
export function windowWords(basis: "purchase" | "inquiry" | "consent", windows: ExemptionsView["windows"]): string {
  if (basis === "consent") return "No end; dated on or before the instant";
  return windows
    .map((w) => {
      const months = basis === "purchase" ? w.purchaseMonths : w.inquiryMonths;
      return months === 0 ? `${windowPlace(w.kind)}: no ${basis} exemption` : `${windowPlace(w.kind)}: within ${months} month${months === 1 ? "" : "s"}`;
    })
    .join("; ");
}

const sum = (c: BasisCounts) => c.purchase + c.inquiry + c.consent;

/**
 * The results screen's exemptions (decisions 161, 184): the good numbers on a do-not-call list that each basis let
 * through, each basis's window on every list the scrub checked (a state's own: Texas allows 12 months, no inquiry),
 * and the records of listed numbers that did not apply, expired, never applicable (litigation, the container) or
 * dated after the instant, per basis. Plain HTML: readable at 390 px, no script needed.
 */
export function ExemptionCounts({ exemptions }: { exemptions: ExemptionsView }) {
  const records = exemptions.records;
  const total = records ? OUTCOMES.reduce((s, o) => s + sum(records[o.key]), 0) : 0;
  return (
    <section className="mt-6" data-testid="exemption-counts" aria-labelledby="exemption-counts-title">
      <h3 id="exemption-counts-title" className="text-sm font-semibold">
        Exemptions applied
      </h3>
      <p className="text-xs break-words text-slate-500">
        {exemptions.name}, version {exemptions.version}, at {exemptions.at.replace("T", " ").replace("Z", " UTC")}. These good numbers are on a do-not-call
        list; the Good file&apos;s exemption column says why each may be called and until when.
      </p>
      {records && (
        <p className="mt-1 text-xs break-words text-slate-600" data-testid="exemption-records">
          Records of listed numbers: {formatNumber(total)}. {formatNumber(sum(records.applied))} applied, {formatNumber(sum(records.expired))} expired,{" "}
          {formatNumber(sum(records.neverApplicable))} never applicable (a litigation list or your container)
          {sum(records.notYet) > 0 ? `, ${formatNumber(sum(records.notYet))} dated after the instant` : ""}. The Bad file&apos;s exemption column says why each
          record did not apply.
        </p>
      )}
      <div className="mt-3 grid gap-3 sm:grid-cols-3">
        {BASES.map((b) => (
          <div key={b.key} className="rounded-lg border border-slate-200 p-4" data-testid={`exemption-${b.key}`}>
            <p className="text-sm font-medium text-slate-700">{b.label}</p>
            <p className="text-2xl font-semibold tabular-nums" data-testid={`exemption-${b.key}-value`}>
              {formatNumber(exemptions.byBasis[b.key])}
            </p>
            <p className="text-xs break-words text-slate-500" data-testid={`exemption-${b.key}-window`}>
              {windowWords(b.key, exemptions.windows)}
            </p>
            {records && (
              <dl className="mt-2 grid grid-cols-[1fr_auto] gap-x-2 text-xs text-slate-600" data-testid={`exemption-${b.key}-records`}>
                {OUTCOMES.filter((o) => o.key !== "notYet" || records.notYet[b.key] > 0).map((o) => (
                  <div key={o.key} className="contents">
                    <dt>{o.label}</dt>
                    <dd className="text-right tabular-nums">{formatNumber(records[o.key][b.key])}</dd>
                  </div>
                ))}
              </dl>
            )}
          </div>
        ))}
      </div>
    </section>
  );
}
