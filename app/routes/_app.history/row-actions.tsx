import { Link } from "@remix-run/react";
import type { HistoryRow } from "~/models/purge.server";
import { DownloadButtons } from "~/components/purge/downloads";
import { CertificateLinks, ValidUntil } from "~/components/proof/certificate-links";
import { ReminderForm } from "~/components/proof/reminder-form";

/**
 * One menu per history row (#44): its results screen, downloads, certificate, "valid until" and reminder, behind a
 * <details> that opens without JavaScript. On a phone the Actions column is one button, not five stacked controls.
 */
export function RowActions({ row, own, redirectTo }: { row: HistoryRow; own: boolean; redirectTo: string }) {
  return (
    <details className="group inline-block text-right" data-testid="row-actions">
      <summary
        className="inline-flex cursor-pointer list-none items-center gap-1 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
        aria-label={`Actions for ${row.fileName}`}
      >
        Actions{" "}
        <span aria-hidden className="text-xs transition group-open:rotate-180">
          ▾
        </span>
      </summary>
      {/* In the flow (not absolutely positioned) so a scrolling table never clips it. */}
      <div className="mt-2 w-64 max-w-[80vw] space-y-3 rounded-md border border-slate-200 bg-white p-3 text-left shadow-sm">
        {own && row.status === "completed" && (
          <Link to={resultsHref(row.id)} className="block text-sm font-medium text-blue-700 underline hover:text-blue-900">
            Open results
          </Link>
        )}
        {row.files.length ? (
          <div>
            <p className="mb-1.5 text-xs font-medium text-slate-500">Download results</p>
            <DownloadButtons files={row.files} size="sm" />
          </div>
        ) : (
          <p className="text-sm text-slate-500">No downloadable results</p>
        )}
        {row.hasCertificate && (
          <div className="space-y-2">
            <ValidUntil validUntil={row.validUntil} dncAgeDays={row.dncAgeDays} />
            {own && <ReminderForm jobId={row.id} reminder={row.reminder} redirectTo={redirectTo} compact />}
            <CertificateLinks jobId={row.id} size="sm" />
          </div>
        )}
      </div>
    </details>
  );
}

/** The results screen of a purge (its owner's wizard, step 6). */
export function resultsHref(jobId: string): string {
  return `/purge?step=6&job=${jobId}`;
}

/** What a purge used beyond its lists: calling times, an exemption list (#44). */
export function RowFeatures({ row }: { row: HistoryRow }) {
  if (!row.callingTimes && !row.exemptionList) return null;
  return (
    <div className="mt-1 flex flex-wrap gap-1 text-xs" data-testid="row-features">
      {row.callingTimes && <span className="rounded-full bg-sky-50 px-2 py-0.5 text-sky-800 ring-1 ring-sky-200">Calling times</span>}
      {row.exemptionList && (
        <span className="max-w-full truncate rounded-full bg-violet-50 px-2 py-0.5 text-violet-800 ring-1 ring-violet-200" title={row.exemptionList}>
          Exemption list: {row.exemptionList}
        </span>
      )}
    </div>
  );
}
