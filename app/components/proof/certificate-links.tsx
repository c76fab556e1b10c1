
import { REGISTRY_VALID_DAYS } from "../../../scrub-service/src/certificate/document";
import { DateOnly } from "~/components/ui/date-time";

/** "Certificate": the signed JSON (download) and its printable page. Plain links: work without JavaScript. */
export function CertificateLinks({ jobId, size = "md" }: { jobId: string; size?: "sm" | "md" }) {
  const pad = size === "sm" ? "px-2.5 py-1 text-xs" : "px-4 py-2 text-sm";
  const cls = `inline-flex items-center gap-1.5 rounded-md border border-indigo-200 bg-indigo-50 font-medium text-indigo-800 hover:bg-indigo-100 ${pad}`;
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="certificate-links">
      <span className={size === "sm" ? "text-xs font-medium text-slate-500" : "text-sm font-medium text-slate-600"}>Certificate</span>
      <a href={`/certificates/${jobId}.json`} download className={cls} data-testid="certificate-json">
        <span aria-hidden>↓</span> JSON
      </a>
      <a href={`/certificates/${jobId}`} className={cls} data-testid="certificate-html">
        View
      </a>
    </div>
  );
}

/** The DNC clock on a purge: how long its Good file may be called, and a warning when the list was stale. */
export function ValidUntil({ validUntil, dncAgeDays }: { validUntil: string | null; dncAgeDays: number | null }) {
  if (!validUntil) return null;
  const stale = dncAgeDays != null && dncAgeDays > REGISTRY_VALID_DAYS;
  return (
    <div className="space-y-1 text-sm" data-testid="valid-until">
      <p className={stale ? "font-medium text-red-700" : "text-slate-700"}>Good file valid for calls until <DateOnly value={validUntil} /></p>
      {stale ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800">
          The DNC list used was {dncAgeDays} days old: older than the {REGISTRY_VALID_DAYS} days the safe harbor allows. Re-scrub after an
          admin loads a newer registry download.
        </p>
      ) : null}
    </div>
  );
}
