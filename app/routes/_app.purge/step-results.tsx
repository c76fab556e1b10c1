/* Step 6 of the purge wizard: the running purge's progress, then its results, downloads and certificate. */
import { Link } from "@remix-run/react";
import { CallingTimes } from "~/components/purge/calling-times";
import { ExemptionCounts } from "~/components/purge/exemption-counts";
import { previousStep, wizardHref } from "~/intake/purge-wizard";
import { formatDate, formatNumber, formatRate, reasonLabel } from "~/utils/format";
import type { JobView } from "~/models/purge.server";
import { INVALID_REASONS, isActiveStatus } from "scrub-service/domain";
import { buttonClass, secondaryButtonClass } from "~/components/ui/form";
import { ProgressBar, StackedBar } from "~/components/ui/bar";
import { DownloadButtons } from "~/components/purge/downloads";
import { CertificateLinks, StaleDncBanner, ValidUntil } from "~/components/proof/certificate-links";
import { ReminderForm } from "~/components/proof/reminder-form";
import { PreviousRow } from "./wizard-nav";
import type { WizardData } from "./wizard-data";
import { ValidationAlert } from "./validation-alert";

/** invalid.csv writes a sentence, bad.csv the code: the reasons table names the code only for bad rows. */
const isInvalidReason = (reason: string): boolean => (INVALID_REASONS as readonly string[]).includes(reason);

export function Processing({ job }: { job: JobView }) {
  return (
    <div className="py-6 text-center" data-testid="processing">
      {/* Without JavaScript the page reloads itself every 2 seconds until the job is done. */}
      <noscript>
        <meta httpEquiv="refresh" content="2" />
      </noscript>
      <h2 className="text-lg font-semibold">Processing Data</h2>
      <p className="mt-1 text-sm text-slate-600">
        {job.status === "queued"
          ? "Waiting for a free worker..."
          : job.status === "retrying"
            ? `Retrying ${job.fileName} from the start (the scrub service running it stopped)...`
            : `Purging ${job.fileName}...`}
      </p>
      <div className="mx-auto mt-5 max-w-md">
        <ProgressBar percent={job.percent} label="Purge progress" />
        <p className="mt-2 text-sm text-slate-700 tabular-nums" data-testid="progress-text">
          {formatNumber(job.rowsDone)} rows processed · {job.percent}%
        </p>
      </div>
      <p className="mt-4 text-xs text-slate-500">You can leave this page: the purge continues and appears in your history.</p>
    </div>
  );
}

/** Each list the purge checked, with the version and release it used (the certificate states the same). */
function ListsChecked({ lists }: { lists: JobView["lists"] }) {
  return (
    <div className="mt-4">
      <h3 className="mb-2 text-sm font-semibold">Lists checked</h3>
      <ul className="space-y-1 text-sm text-slate-700" aria-label="Lists checked" data-testid="lists-checked">
        {lists.map((l) => (
          <li key={`${l.kind}-${l.name}`} className="flex flex-wrap gap-x-2">
            <span className="font-medium">{l.name}</span>
            <span className="text-slate-500 tabular-nums">
              version {l.version} · {formatNumber(l.count)} numbers
              {l.registryDate ? ` · release of ${formatDate(l.registryDate, "UTC")}` : ""}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Results({ job }: { job: JobView }) {
  const total = job.good + job.bad + job.invalid;
  const parts = [
    { key: "good", label: "Good", value: job.good, fill: "fill-green-500", text: "text-green-700" },
    { key: "bad", label: "Bad", value: job.bad, fill: "fill-red-500", text: "text-red-700" },
    { key: "invalid", label: "Invalid", value: job.invalid, fill: "fill-amber-500", text: "text-amber-700" },
  ];
  const reasons = Object.entries(job.reasons).filter(([, v]) => v > 0);
  return (
    <div data-testid="results">
      <StaleDncBanner dncAgeDays={job.dncAgeDays} />
      <h2 className="text-lg font-semibold">Purge complete</h2>
      <p className="text-sm text-slate-600">
        {job.fileName}: {formatNumber(total)} rows processed, {formatRate(total ? job.good / total : 0)} clean.
      </p>
      <div className="mt-4 grid gap-3 sm:grid-cols-3">
        {parts.map((p) => (
          <div key={p.key} className="rounded-lg border border-slate-200 p-4" data-testid={`count-${p.key}`}>
            <p className={`text-sm font-medium ${p.text}`}>{p.label} numbers</p>
            <p className="text-2xl font-semibold tabular-nums" data-testid={`count-${p.key}-value`}>
              {formatNumber(p.value)}
            </p>
            <p className="text-xs text-slate-500">{formatRate(total ? p.value / total : 0)} of rows</p>
          </div>
        ))}
      </div>
      {total > 0 && (
        <StackedBar
          className="mt-4 h-3 w-full"
          track="bg-slate-100"
          segments={parts.map((p) => ({ key: p.key, percent: (p.value / total) * 100, fill: p.fill }))}
        />
      )}
      {job.calling && <CallingTimes calling={job.calling} />}
      {job.exemptions && <ExemptionCounts exemptions={job.exemptions} />}
      {reasons.length > 0 && (
        <table className="mt-4 min-w-[16rem] text-sm" aria-label="Reasons">
          <thead>
            <tr className="text-left text-xs tracking-wide text-slate-500 uppercase">
              <th className="py-1 pr-6">Reason</th>
              <th className="py-1 pr-6">In bad.csv</th>
              <th className="py-1 text-right">Rows</th>
            </tr>
          </thead>
          <tbody>
            {reasons.map(([k, v]) => (
              <tr key={k} className="border-t border-slate-100">
                <td className="py-1 pr-6">{reasonLabel(k)}</td>
                {/* one vocabulary (#44): the code bad.csv writes beside the words; invalid.csv writes a sentence instead */}
                <td className="py-1 pr-6">{isInvalidReason(k) ? <span className="text-slate-400">invalid.csv</span> : <code className="text-xs">{k}</code>}</td>
                <td className="py-1 text-right tabular-nums">{formatNumber(v)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {job.lists.length > 0 && <ListsChecked lists={job.lists} />}
      <h3 className="mt-6 mb-2 text-sm font-semibold">Download results</h3>
      {job.files.length ? <DownloadButtons files={job.files} /> : <p className="text-sm text-slate-500">No downloadable results</p>}
      {job.status === "completed" ? (
        <div className="mt-4 space-y-3">
          <ValidUntil validUntil={job.validUntil} dncAgeDays={job.dncAgeDays} />
          <ReminderForm jobId={job.id} reminder={job.reminder} redirectTo={`/purge?step=6&job=${job.id}`} />
          <CertificateLinks jobId={job.id} />
        </div>
      ) : null}
    </div>
  );
}

export function Step6({ wizard }: { wizard: WizardData }) {
  const { state, job } = wizard;
  if (!job) return null;
  const running = isActiveStatus(job.status);
  return (
    <div>
      {running && <Processing job={job} />}
      {job.status === "failed" && (
        <ValidationAlert title="Failed to process purge." message={job.error ?? "The purge could not be completed. Please try again."} />
      )}
      {job.status === "completed" && <Results job={job} />}
      <PreviousRow to={wizardHref(state, { step: previousStep(state), job: "" })} wrap>
        <div className="flex flex-wrap gap-2 whitespace-nowrap">
          <Link to="/history" className={secondaryButtonClass}>
            View History
          </Link>
          <Link to="/purge" className={buttonClass}>
            Start New Purge
          </Link>
        </div>
      </PreviousRow>
    </div>
  );
}
