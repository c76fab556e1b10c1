export function StatCard({
  label,
  value,
  hint,
  accent = "blue",
  testId,
  children,
}: {
  label: string;
  value: string;
  hint?: React.ReactNode;
  accent?: "blue" | "green" | "violet" | "amber";
  testId?: string;
  children?: React.ReactNode;
}) {
  const bar = { blue: "bg-blue-500", green: "bg-green-500", violet: "bg-violet-500", amber: "bg-amber-500" }[accent];
  return (
    <section className="relative overflow-hidden rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <span aria-hidden className={`absolute inset-y-0 left-0 w-1 ${bar}`} />
      <h2 className="text-sm font-medium text-slate-500">{label}</h2>
      <p className="mt-1 text-2xl font-semibold tracking-tight text-slate-900" data-testid={testId ? `${testId}-value` : undefined}>
        {value}
      </p>
      {hint && <p className="mt-1 text-xs text-slate-500">{hint}</p>}
      {children}
    </section>
  );
}
