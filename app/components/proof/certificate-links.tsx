import { REGISTRY_VALID_DAYS } from "scrub-service/domain";
import { formatDate } from "~/utils/format";

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

/**
 * The DNC clock on a purge: how long its Good file may be called (red when the DNC list used was stale).
 * Registry dates and valid-until are calendar days (the admin states a day): named in UTC, the day they were
 * stated in, never shifted into the viewer's zone (decision 110).
 */
export function ValidUntil({ validUntil, dncAgeDays }: { validUntil: string | null; dncAgeDays: number | null }) {
  if (!validUntil) return null;
  const stale = dncAgeDays != null && dncAgeDays > REGISTRY_VALID_DAYS;
  return (
    <p className={`text-sm ${stale ? "font-medium text-red-700" : "text-slate-700"}`} data-testid="valid-until">
      Good file valid for calls until {formatDate(validUntil)}
      {stale ? ` (DNC list ${dncAgeDays} days old)` : ""}
    </p>
  );
}

/**
 * The results screen's own banner when the DNC list a purge used was older than the safe harbor's 31 days at
 * scrub time (separate from the wizard's warning before the start and from the admins' clock banner).
 */
export function StaleDncBanner({ dncAgeDays }: { dncAgeDays: number | null }) {
  if (dncAgeDays == null || dncAgeDays <= REGISTRY_VALID_DAYS) return null;
  return (
    <div role="alert" data-testid="stale-dnc-banner" className="mb-4 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p className="font-medium">This purge checked a DNC list that was {dncAgeDays} days old.</p>
      <p>
        The safe harbor needs a registry download at most {REGISTRY_VALID_DAYS} days old: calls to its Good file are not covered. Re-scrub after an admin loads
        a newer registry download.
      </p>
    </div>
  );
}
