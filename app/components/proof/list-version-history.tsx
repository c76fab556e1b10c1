import { formatDate, formatNumber } from "~/utils/format";
import { DateTime } from "~/components/ui/date-time";
import type { ListVersion } from "~/models/list-version.server";

const MODE_WORD: Record<string, string> = { add: "Added", remove: "Removed", replace: "Replaced", changes: "Change list" };

/**
 * A list's newest versions and where each came from (decision 110). `registry`: the DNC list, whose versions
 * carry the registry date the admin stated. A <details>: opens without JavaScript.
 */
export function ListVersionHistory({ versions, registry }: { versions: ListVersion[]; registry: boolean }) {
  if (!versions.length) return null;
  return (
    <details className="mt-4 text-sm" data-testid="version-history">
      <summary className="cursor-pointer font-medium text-slate-700">Version history</summary>
      <ol className="mt-2 space-y-2">
        {versions.map((v) => (
          <li key={v.loadId} className="rounded-md border border-slate-200 p-2 text-xs text-slate-700" data-testid={`version-${v.version}`}>
            <p className="font-medium text-slate-900">
              Version {v.version} · {MODE_WORD[v.mode] ?? v.mode} · {formatNumber(v.size)} numbers
            </p>
            {registry && <p data-testid="version-registry-date">Registry date {formatDate(v.registryDate)}</p>}
            <p>
              Loaded <DateTime value={v.loadedAt} />
              {v.loadedBy ? ` by ${v.loadedBy}` : ""}
            </p>
            <p className="break-all">
              {v.fileName} ({v.sourceFormat}) · SHA-256 <span className="font-mono">{v.sourceSha256}</span>
            </p>
            <p>
              {formatNumber(v.added)} added, {formatNumber(v.removed)} removed, {formatNumber(v.alreadyPresent)} already present, {formatNumber(v.invalid)}{" "}
              invalid
            </p>
          </li>
        ))}
      </ol>
    </details>
  );
}
