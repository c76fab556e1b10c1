/**
 * Horizontal bars (progress, usage, result shares) drawn as SVG rectangles: their widths are SVG attributes,
 * not `style=` attributes, so the Content-Security-Policy needs no `style-src 'unsafe-inline'` (SECURITY.md).
 */

export interface BarSegment {
  key: string;
  /** Share of the whole bar, 0–100 (clamped; segments past 100 % in total are cut). */
  percent: number;
  /** A Tailwind fill class, e.g. `fill-blue-600`. */
  fill: string;
}

/** Segments side by side from the left, inside a rounded track. Decorative unless wrapped in a labelled element. */
export function StackedBar({ segments, className = "h-2.5 w-full", track = "bg-slate-200" }: { segments: BarSegment[]; className?: string; track?: string }) {
  let x = 0;
  const rects = segments.map((s) => {
    const width = Math.max(0, Math.min(100 - x, Number.isFinite(s.percent) ? s.percent : 0));
    const rect = <rect key={s.key} x={`${x}%`} y="0" width={`${width}%`} height="100%" className={s.fill} />;
    x += width;
    return rect;
  });
  return (
    <span className={`block overflow-hidden rounded-full ${track} ${className}`}>
      <svg className="block h-full w-full" aria-hidden="true" focusable="false">
        {rects}
      </svg>
    </span>
  );
}

const TONES = { blue: "fill-blue-600", green: "fill-green-600", red: "fill-red-600" } as const;

/** A progress bar with its ARIA progressbar semantics. */
export function ProgressBar({
  percent,
  label,
  tone = "blue",
  className = "h-2.5 w-full",
}: {
  percent: number;
  label: string;
  tone?: keyof typeof TONES;
  className?: string;
}) {
  const p = Math.max(0, Math.min(100, Number.isFinite(percent) ? percent : 0));
  return (
    <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(p)}>
      <StackedBar segments={[{ key: "done", percent: p, fill: TONES[tone] }]} className={className} />
    </div>
  );
}
