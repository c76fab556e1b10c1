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
