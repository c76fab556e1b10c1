import type { CallCapView, EmergencyPeriodView, HoursSpan, JurisdictionView, ListView, RuleView } from "./view.server";
import { formatDate } from "~/utils/format";

/** "20:00" → "8:00 PM". */
export function clock12(hhmm: string): string {
  const [h, m] = hhmm.split(":").map(Number);
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}:${String(m).padStart(2, "0")} ${h < 12 ? "AM" : "PM"}`;
}

/** A calendar day (YYYY-MM-DD) in the product's one date format ("Nov 28, 2026"), with no zone shift. */
export function CalendarDay({ value }: { value: string }) {
  return <time dateTime={value}>{formatDate(`${value}T12:00:00Z`, "UTC")}</time>;
}

export function Hours({ spans }: { spans: HoursSpan[] }) {
  return (
    <ul className="space-y-0.5">
      {spans.map((s) => (
        <li key={s.days}>
          <span className="font-medium text-slate-800">{s.days}</span>{" "}
          {s.window ? (
            <span className="tabular-nums">
              {clock12(s.window.from)}–{clock12(s.window.to)}
            </span>
          ) : (
            <span className="text-red-700">no calls</span>
          )}
        </li>
      ))}
    </ul>
  );
}

function SourceLink({ href }: { href: string }) {
  return (
    <a href={href} className="break-all text-blue-700 underline hover:text-blue-900" rel="noreferrer noopener" target="_blank">
      {href}
    </a>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[10rem_1fr] sm:gap-3">
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-sm text-slate-700">{children}</dd>
    </div>
  );
}

const months = (n: number) => (n === 0 ? "none" : `${n} month${n === 1 ? "" : "s"}`);

function RuleDetails({ rule }: { rule: RuleView }) {
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 p-4" data-testid={`rule-${rule.id}`}>
      <h4 className="text-sm font-semibold text-slate-900">{rule.name}</h4>
      <dl className="space-y-2">
        <Field label="Calling hours">
          <Hours spans={rule.hours} />
          {rule.clock ? <p className="mt-1 text-xs text-slate-500">Read on {rule.clock}.</p> : null}
        </Field>
        <Field label="Holidays">
          {rule.holidays.length === 0 ? (
            "No holiday ban"
          ) : (
            <details>
              <summary className="cursor-pointer">{rule.holidays.length} holidays with no calls</summary>
              <ul className="mt-1 list-disc space-y-0.5 pl-5">
                {rule.holidays.map((h) => (
                  <li key={h.name}>
                    {h.name} ({h.when})
                  </li>
                ))}
              </ul>
              {rule.observance ? <p className="mt-1 text-xs text-slate-500">{rule.observance}</p> : null}
            </details>
          )}
        </Field>
        <Field label="In force">
          {rule.effective ? (
            <>
              from <CalendarDay value={rule.effective} />
            </>
          ) : (
            "Start date not established"
          )}
        </Field>
        <Field label="Checked against">
          {rule.verified === "statute" ? "The statute or regulator's text" : "Secondary sources only (the stricter reading is applied)"}
        </Field>
        <Field label="Citation">{rule.citation}</Field>
        <Field label="Source">
          <SourceLink href={rule.source} />
        </Field>
        {rule.note ? (
          <Field label="Notes">
            <details>
              <summary className="cursor-pointer">What was read, and the readings taken</summary>
              <p className="mt-1 text-xs leading-5 text-slate-600">{rule.note}</p>
            </details>
          </Field>
        ) : null}
      </dl>
    </div>
  );
}

function ListDetails({ list }: { list: ListView }) {
  return (
    <div className="space-y-2 rounded-lg border border-violet-200 bg-violet-50/40 p-4">
      <h4 className="text-sm font-semibold text-slate-900">{list.name}</h4>
      <dl className="space-y-2">
        <Field label="Publisher">{list.publisher}</Field>
        <Field label="Freshness">
          {list.freshness} A copy is used for at most {list.validDays} days after its release ({list.cadence}).
        </Field>
        <Field label="Exemptions">
          Purchase or transaction: {months(list.exemption.purchaseMonths)}; inquiry or application: {months(list.exemption.inquiryMonths)}; written consent: no
          limit.
          {list.exemption.source ? (
            <span className="block text-xs">
              {list.exemption.source.split("; ").map((s) => (
                <span key={s} className="block">
                  {s.startsWith("http") ? <SourceLink href={s.split(" ")[0]} /> : s}
                  {s.includes(" ") && s.startsWith("http") ? ` ${s.slice(s.indexOf(" ") + 1)}` : ""}
                </span>
              ))}
            </span>
          ) : null}
        </Field>
        <Field label="Source">
          <SourceLink href={list.source} />
        </Field>
      </dl>
    </div>
  );
}

export function JurisdictionSection({ j }: { j: JurisdictionView }) {
  return (
    <section id={j.code} className="scroll-mt-4 space-y-3" aria-labelledby={`${j.code}-title`} data-testid={`jurisdiction-${j.code}`}>
      <h3 id={`${j.code}-title`} className="text-base font-semibold text-slate-900">
        {j.name}
      </h3>
      {j.rules.length === 0 ? <p className="text-sm text-slate-600">No calling-hour rule stricter than the federal one is applied.</p> : null}
      {j.rules.map((r) => (
        <RuleDetails key={r.id} rule={r} />
      ))}
      {j.list ? <ListDetails list={j.list} /> : null}
    </section>
  );
}

/** One row per jurisdiction: the overview, scrolled sideways inside its box on a narrow screen. */
export function SummaryTable({ rows }: { rows: JurisdictionView[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200" data-testid="rules-summary">
      <table className="min-w-[40rem] w-full text-left text-sm">
        <caption className="sr-only">Calling hours and do-not-call lists by jurisdiction</caption>
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-3 py-2">
              Jurisdiction
            </th>
            <th scope="col" className="px-3 py-2">
              Calling hours (local)
            </th>
            <th scope="col" className="px-3 py-2">
              Sunday
            </th>
            <th scope="col" className="px-3 py-2">
              Holidays
            </th>
            <th scope="col" className="px-3 py-2">
              Own DNC list
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 align-top">
          {rows.map((j) => (
            <tr key={j.code} data-testid={`summary-${j.code}`}>
              <th scope="row" className="px-3 py-2 font-medium">
                <a href={`#${j.code}`} className="text-blue-700 underline hover:text-blue-900">
                  {j.name}
                </a>
              </th>
              <td className="px-3 py-2">
                {j.rules.length === 0 ? "Federal hours" : null}
                {j.rules.map((r) => (
                  <div key={r.id} className={j.rules.length > 1 ? "mb-1" : undefined}>
                    {j.rules.length > 1 ? <span className="block text-xs text-slate-500">{r.name}</span> : null}
                    <Hours spans={r.hours} />
                    {r.effective ? (
                      <span className="block text-xs text-slate-500">
                        in force from <CalendarDay value={r.effective} />
                      </span>
                    ) : null}
                  </div>
                ))}
              </td>
              <td className="px-3 py-2">{j.rules.some((r) => r.sundayBanned) ? <span className="text-red-700">Banned</span> : "Allowed"}</td>
              <td className="px-3 py-2">{j.rules.some((r) => r.holidays.length) ? "Banned (see below)" : "—"}</td>
              <td className="px-3 py-2">{j.list ? `${j.list.name}: a copy up to ${j.list.validDays} days old` : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Emergency no-call periods (decision 181): the periods in force and upcoming, each with its source; the statutes. */
export function EmergencyPeriodsSection({
  periods,
  statutes,
}: {
  periods: EmergencyPeriodView[] | null;
  statutes: { code: string; name: string; cite: string; source: string; exceptions: string | null }[];
}) {
  return (
    <section id="emergency-periods" className="scroll-mt-4 space-y-3" aria-labelledby="emergency-title" data-testid="emergency-periods">
      <h2 id="emergency-title" className="text-lg font-semibold">
        Emergency no-call periods
      </h2>
      <p className="text-sm text-slate-700">
        Some states forbid telephone solicitations into an area under a declared emergency. While a period below lasts (the called number's local days, the
        first and the last included), a number of its states and area codes is not callable; the first lawful time after it follows that day's own hours, Sunday
        and holiday bans. Each period is entered from its published declaration, named below with its source.
      </p>
      {periods === null ? (
        <p className="text-sm text-red-700">The periods could not be read just now.</p>
      ) : periods.length === 0 ? (
        <p className="text-sm text-slate-600">No period is in force or announced.</p>
      ) : (
        <ul className="space-y-2">
          {periods.map((p) => (
            <li key={p.id} className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm" data-testid={`emergency-period-${p.id}`}>
              <p className="font-semibold text-slate-900">
                {p.places}
                {p.areaCodes ? ` (area codes ${p.areaCodes.join(", ")})` : ""}: <CalendarDay value={p.firstDay} /> to <CalendarDay value={p.lastDay} />{" "}
                <span className="font-normal text-slate-600">
                  · {p.status} · period {p.id}
                </span>
              </p>
              <p className="mt-1 break-words text-slate-700">
                {p.authority ? `Declared by ${p.authority}. ` : ""}Source:{" "}
                <a href={p.sourceUrl} className="break-all text-blue-700 underline hover:text-blue-900" rel="noopener noreferrer nofollow">
                  {p.sourceUrl}
                </a>
              </p>
            </li>
          ))}
        </ul>
      )}
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
        {statutes.map((s) => (
          <li key={s.code}>
            {s.name}:{" "}
            <a href={s.source} className="text-blue-700 underline hover:text-blue-900" rel="noopener noreferrer nofollow">
              {s.cite}
            </a>
            {s.exceptions ? `. Exceptions applied through a purge's exemption records: ${s.exceptions}.` : "."}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The call frequency caps (decision 185): rule data with their sources; not applied to purges yet. */
export function CallLimitsSection({ version, caps }: { version: string; caps: CallCapView[] }) {
  return (
    <section id="call-limits" className="scroll-mt-4 space-y-3" aria-labelledby="call-limits-title" data-testid="call-limits">
      <h2 id="call-limits-title" className="text-lg font-semibold">
        Call limits
      </h2>
      <p className="text-sm text-slate-700">
        How many calls or texts a law allows to one person in a window. Your call history (POST /api/v1/calls, <span className="font-mono">npm run calls</span>)
        is kept five years for these counts; purges and lookups do not apply the limits yet. Caps version{" "}
        <span className="font-mono font-semibold">{version}</span>.
      </p>
      <ul className="space-y-3">
        {caps.map((c) => (
          <li key={c.id} className="rounded-lg border border-slate-200 p-3 text-sm" data-testid={`call-cap-${c.id}`}>
            <p className="font-semibold text-slate-900">
              {c.jurisdiction}: {c.limit}{" "}
              <span className="font-normal text-slate-600">
                · {c.purpose} · counts {c.scope}; {c.channels}
              </span>
            </p>
            <p className="mt-1 text-slate-700">Lifted by: {c.lifts}</p>
            <p className="mt-1 break-words text-slate-700">
              {c.citation}{" "}
              <a href={c.source} className="break-all text-blue-700 underline hover:text-blue-900" rel="noopener noreferrer nofollow">
                Source
              </a>
              {c.checked === "secondary" ? " (read in secondary sources)" : ""}. In force from <CalendarDay value={c.effective} />.
            </p>
            {c.note ? <p className="mt-1 text-xs text-slate-500">{c.note}</p> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
