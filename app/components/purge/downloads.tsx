import { formatNumber } from "~/utils/format";

export interface DownloadFile {
  id: string;
  kind: "good" | "bad" | "invalid";
  records: number;
}

export const KIND_LABEL = { good: "Good", bad: "Bad", invalid: "Invalid" } as const;

const KIND_STYLE = {
  good: "border-green-200 bg-green-50 text-green-800 hover:bg-green-100",
  bad: "border-red-200 bg-red-50 text-red-800 hover:bg-red-100",
  invalid: "border-amber-200 bg-amber-50 text-amber-800 hover:bg-amber-100",
} as const;

/** Plain links (a resource route sends the file as an attachment): work with JavaScript off. No `download`
 * attribute: a failed download then shows History's alert instead of failing silently in the browser. */
export function DownloadButtons({ files, size = "md" }: { files: DownloadFile[]; size?: "sm" | "md" }) {
  const pad = size === "sm" ? "px-2.5 py-1 text-xs" : "px-4 py-2 text-sm";
  return (
    <div className="flex flex-wrap gap-2">
      {files.map((f) => (
        <a
          key={f.id}
          href={`/downloads/${f.id}`}
          className={`inline-flex items-center gap-1.5 rounded-md border font-medium ${pad} ${KIND_STYLE[f.kind]}`}
          data-testid={`download-${f.kind}`}
        >
          <span aria-hidden>↓</span> {KIND_LABEL[f.kind]}
          <span className="opacity-70">({formatNumber(f.records)})</span>
        </a>
      ))}
    </div>
  );
}

/** The history table's download popup: a <details> element, so it opens without JavaScript. */
export function DownloadPopup({ files, label }: { files: DownloadFile[]; label: string }) {
  if (!files.length) return <span className="text-sm text-slate-500">No downloadable results</span>;
  return (
    <details className="group inline-block text-right">
      <summary
        className="inline-flex cursor-pointer list-none items-center gap-1 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
        aria-label={`Download results of ${label}`}
      >
        Download <span aria-hidden className="text-xs transition group-open:rotate-180">▾</span>
      </summary>
      {/* In the flow (not absolutely positioned) so a scrolling table never clips it. */}
      <div className="mt-2 rounded-md border border-slate-200 bg-white p-2 text-left shadow-sm">
        <p className="mb-1.5 text-xs font-medium text-slate-500">Download results</p>
        <DownloadButtons files={files} size="sm" />
      </div>
    </details>
  );
}
