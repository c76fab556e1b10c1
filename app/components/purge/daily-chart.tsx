import { formatDay, formatNumber } from "~/utils/format";

/** A "nice" axis maximum with 4 whole-number steps: 4 × (1, 2 or 5 × a power of ten), at least the value. */
export function niceMax(v: number): number {
  const raw = Math.max(1, v / 4);
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * p >= raw) return 4 * m * p;
  return 40 * p;
}

/** Server-rendered SVG bar chart of numbers purged per day (no JavaScript needed). */
export function DailyChart({ data }: { data: { day: string; processed: number }[] }) {
  const width = 720;
  const height = 220;
  const pad = { top: 12, right: 12, bottom: 28, left: 56 };
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const max = niceMax(Math.max(0, ...data.map((d) => d.processed)));
  const slot = innerW / Math.max(1, data.length);
  const barW = Math.max(2, slot * 0.7);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => t * max);
  const total = data.reduce((s, d) => s + d.processed, 0);
  const labelEvery = Math.ceil(data.length / 6);
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto w-full"
        role="img"
        aria-label={`Numbers purged per day over the last ${data.length} days: ${formatNumber(total)} in total`}
      >
        {ticks.map((t) => {
          const y = pad.top + innerH - (t / max) * innerH;
          return (
            <g key={t}>
              <line x1={pad.left} x2={width - pad.right} y1={y} y2={y} stroke="#e2e8f0" strokeWidth={1} />
              <text x={pad.left - 8} y={y + 4} textAnchor="end" fontSize={11} fill="#64748b">
                {formatNumber(t)}
              </text>
            </g>
          );
        })}
        {data.map((d, i) => {
          const h = (d.processed / max) * innerH;
          const x = pad.left + i * slot + (slot - barW) / 2;
          return (
            <g key={d.day}>
              <rect
                x={x}
                y={pad.top + innerH - h}
                width={barW}
                height={Math.max(h, d.processed > 0 ? 1 : 0)}
                rx={2}
                fill="#2563eb"
                data-day={d.day}
                data-value={d.processed}
              >
                <title>{`${formatDay(d.day)}: ${formatNumber(d.processed)} numbers`}</title>
              </rect>
              {(i % labelEvery === 0 || i === data.length - 1) && (
                <text x={pad.left + i * slot + slot / 2} y={height - 8} textAnchor="middle" fontSize={11} fill="#64748b">
                  {formatDay(d.day)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="sr-only">
        <table>
          <thead>
            <tr>
              <th>Day</th>
              <th>Numbers purged</th>
            </tr>
          </thead>
          <tbody>
            {data.map((d) => (
              <tr key={d.day}>
                <td>{d.day}</td>
                <td>{d.processed}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </figcaption>
    </figure>
  );
}
