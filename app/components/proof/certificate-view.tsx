import { takesRegistryDate, type CertificateFile } from "scrub-service/domain";
import { formatNumber, reasonLabel, SUPPRESSION_LABEL } from "~/utils/format";
import { CalendarDate, DateTime } from "~/components/ui/date-time";
import { rulesHref } from "~/utils/rules-link";

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 border-b border-slate-100 py-2 sm:grid-cols-[14rem_1fr]">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-sm text-slate-900">{children}</dd>
    </div>
  );
}

const Hash = ({ value }: { value: string | null }) => <code className="break-all font-mono text-xs">{value ?? "—"}</code>;

/** Every fact a certificate states, printable (the same facts as its JSON). */
export function CertificateView({ file }: { file: CertificateFile }) {
  const c = file.certificate;
  return (
    <div className="space-y-6">
      <dl>
        <Row label="Scrub (job id)">{c.jobId}</Row>
        <Row label="Owner">
          {c.owner.name} · {c.owner.email} · {c.owner.company}
        </Row>
        <Row label="Issued">
          <DateTime value={c.issuedAt} />
        </Row>
        <Row label="Input file">
          {c.input.fileName} ({formatNumber(c.input.bytes)} bytes)
          <br />
          SHA-256 <Hash value={c.input.sha256} />
        </Row>
        <Row label="Suppression type">{SUPPRESSION_LABEL[c.suppressionType] ?? c.suppressionType}</Row>
        <Row label="State filter">{c.stateFilter?.length ? c.stateFilter.join(", ") : "None"}</Row>
        <Row label="Rows">
          {formatNumber(c.counts.total)} processed: {formatNumber(c.counts.good)} good, {formatNumber(c.counts.bad)} bad, {formatNumber(c.counts.invalid)}{" "}
          invalid
        </Row>
        <Row label="By reason">
          {Object.entries(c.counts.byReason)
            .filter(([, n]) => n > 0)
            .map(([r, n]) => `${reasonLabel(r)}: ${formatNumber(n)}`)
            .join(" · ") || "None"}
        </Row>
        <Row label="Normalizer rules">{c.normalizerRulesVersion}</Row>
        {c.callingWindow ? (
          <Row label="Calling times">
            Good file has time zone, callable now, next call time and calling note at {c.callingWindow.at.replace("T", " ").replace("Z", " UTC")}; calling rules{" "}
            <a href={rulesHref(c.callingWindow.rulesVersion)} className="text-blue-700 underline hover:text-blue-900" data-testid="certificate-rules-link">
              {c.callingWindow.rulesVersion}
            </a>
            ; time zones from {c.callingWindow.timeZoneSource}
          </Row>
        ) : null}
        {c.callingWindow?.emergencyPeriods?.length ? (
          <Row label="Emergency periods">
            <ul className="space-y-1" data-testid="certificate-emergency-periods">
              {c.callingWindow.emergencyPeriods.map((p) => (
                <li key={p.id}>
                  Period {p.id}: {p.states.join(", ")}
                  {p.areaCodes ? ` (area codes ${p.areaCodes.join(", ")})` : ""}, {p.firstDay} to {p.lastDay}
                  {p.authority ? `, declared by ${p.authority}` : ""}: {formatNumber(p.heldRows)} good rows held;{" "}
                  <a href={p.sourceUrl} className="break-all text-blue-700 underline hover:text-blue-900" rel="noopener noreferrer nofollow">
                    source
                  </a>
                </li>
              ))}
            </ul>
          </Row>
        ) : null}
        {c.exemptions ? (
          <Row label="Exemptions">
            {c.exemptions.name}, list {c.exemptions.listId} version {c.exemptions.version} ({formatNumber(c.exemptions.count)} numbers) at{" "}
            {c.exemptions.at.replace("T", " ").replace("Z", " UTC")}: {formatNumber(c.exemptions.byBasis.purchase)} purchase,{" "}
            {formatNumber(c.exemptions.byBasis.inquiry)} inquiry, {formatNumber(c.exemptions.byBasis.consent)} consent let through
            <br />
            SHA-256 <Hash value={c.exemptions.sha256} />
          </Row>
        ) : null}
        {c.dncRegistry ? (
          <Row label="DNC registry clock">
            Registry date <CalendarDate value={c.dncRegistry.registryDate} />, {c.dncRegistry.ageDays} days old at completion
            {c.dncRegistry.withinWindow ? "" : " (older than 31 days)"}; Good file valid for calls until <CalendarDate value={c.dncRegistry.validUntil} />
          </Row>
        ) : null}
      </dl>
      <section>
        <h2 className="mb-2 text-base font-semibold text-slate-900">List versions used</h2>
        <ul className="space-y-2">
          {c.lists.map((l) => (
            <li key={`${l.kind}-${l.listId}`} className="rounded-md border border-slate-200 p-3 text-sm">
              <p className="font-medium">
                {l.name} ({l.kind}), list {l.listId} version {l.version}: {formatNumber(l.count)} numbers
              </p>
              <p className="text-slate-600">
                {l.registryDate ? (
                  <>
                    {takesRegistryDate(l.kind) ? (
                      <>
                        Registry date <CalendarDate value={l.registryDate} />
                      </>
                    ) : (
                      <>
                        Loaded <DateTime value={l.registryDate} />
                      </>
                    )}
                  </>
                ) : (
                  "Never loaded"
                )}
                {l.sourceFileName ? ` · source ${l.sourceFileName}` : ""}
              </p>
              {l.sourceSha256 ? (
                <p>
                  Source SHA-256 <Hash value={l.sourceSha256} />
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h2 className="mb-2 text-base font-semibold text-slate-900">Result files</h2>
        <dl>
          {(["good", "bad", "invalid"] as const).map((k) => (
            <Row key={k} label={`${k}.csv (${c.outputs[k].fileName})`}>
              {formatNumber(c.outputs[k].records)} rows, {formatNumber(c.outputs[k].bytes)} bytes
              <br />
              SHA-256 <Hash value={c.outputs[k].sha256} />
            </Row>
          ))}
        </dl>
      </section>
      <section>
        <h2 className="mb-2 text-base font-semibold text-slate-900">Signature</h2>
        <dl>
          <Row label="Algorithm">{file.signature.algorithm}</Row>
          <Row label="Key id">{file.signature.keyId}</Row>
          <Row label="Public key">
            <Hash value={file.signature.publicKey} />
          </Row>
          <Row label="Signature">
            <Hash value={file.signature.value} />
          </Row>
        </dl>
      </section>
    </div>
  );
}
