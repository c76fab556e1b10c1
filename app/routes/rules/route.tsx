import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PublicPage } from "~/components/legal-page";
import { CalendarDay, CallLimitsSection, EmergencyPeriodsSection, JurisdictionSection, SummaryTable } from "./parts";
import { callCapsView, EMERGENCY_STATUTE_VIEWS, emergencyPeriodsView, rulesPageData, type EmergencyPeriodView } from "./view.server";
import { listEmergencyPeriods } from "~/models/emergency-period.server";
import { getDb } from "~/utils/db.server";

export const meta: MetaFunction = () => [
  { title: "Calling rules and do-not-call lists · Data Purging Tool" },
  { name: "description", content: "The calling hours, Sunday and holiday bans, and do-not-call lists a purge applies, with their citations and every change." },
];

/** Public (decision 178): no sign-in, the same data the engine applies; the emergency periods in force and upcoming (decision 181). */
export async function loader() {
  let emergencyPeriods: EmergencyPeriodView[] | null = null;
  try {
    emergencyPeriods = emergencyPeriodsView(await listEmergencyPeriods(await getDb()), new Date());
  } catch (e) {
    console.error(e); // the rules themselves are still shown; the section says the periods could not be read
  }
  return { ...rulesPageData(), emergencyPeriods, emergencyStatutes: EMERGENCY_STATUTE_VIEWS, callLimits: callCapsView() };
}

export default function RulesPage() {
  const data = useLoaderData<typeof loader>();
  const rows = [data.federal, data.canada, ...data.states];
  return (
    <PublicPage wide>
      <article className="min-w-0 space-y-10 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-10">
        <header className="space-y-2">
          <h1 className="text-2xl font-bold tracking-tight">Calling rules and do-not-call lists</h1>
          <p className="text-sm text-slate-600">
            What a purge with calling times applies to each number, and which do-not-call lists it checks. A number is subject to the federal rule and its
            state's rules together (by its area code), in every time zone its exchange may be in; a Canadian number to the CRTC rules. Where sources disagree or
            are silent, the stricter reading is applied, and each entry says so. This page is information, not legal advice.
          </p>
          <p className="text-sm" data-testid="rules-version">
            Rules version <span className="font-mono font-semibold">{data.version}</span>
            {data.history[0] ? (
              <>
                , published <CalendarDay value={data.history[0].date} />
              </>
            ) : null}
            .{" "}
            <a href="#changes" className="text-blue-700 underline hover:text-blue-900">
              What changed
            </a>
          </p>
        </header>

        <section className="space-y-3" aria-labelledby="overview-title">
          <h2 id="overview-title" className="text-lg font-semibold">
            Overview
          </h2>
          <p className="text-xs text-slate-500">Hours are local to the called number; the end time itself is outside the window.</p>
          <SummaryTable rows={rows} />
        </section>

        <section className="space-y-6" aria-labelledby="federal-title">
          <h2 id="federal-title" className="text-lg font-semibold">
            Federal and Canada
          </h2>
          <JurisdictionSection j={data.federal} />
          <JurisdictionSection j={data.canada} />
        </section>

        <section className="space-y-6" aria-labelledby="states-title">
          <h2 id="states-title" className="text-lg font-semibold">
            States
          </h2>
          {data.states.map((j) => (
            <JurisdictionSection key={j.code} j={j} />
          ))}
        </section>

        <EmergencyPeriodsSection periods={data.emergencyPeriods} statutes={data.emergencyStatutes} />

        <CallLimitsSection version={data.callLimits.version} caps={data.callLimits.caps} />

        <section id="changes" className="scroll-mt-4 space-y-3" aria-labelledby="changes-title">
          <h2 id="changes-title" className="text-lg font-semibold">
            Changes by version
          </h2>
          <ol className="space-y-4">
            {data.history.map((r) => (
              <li key={r.version} id={`rules-${r.version}`} className="scroll-mt-4 rounded-lg border border-slate-200 p-4" data-testid={`release-${r.version}`}>
                <p className="text-sm font-semibold">
                  <span className="font-mono">{r.version}</span> · <CalendarDay value={r.date} />
                  <span className="ml-2 text-xs font-normal text-slate-500">decision {r.decisions.join(", ")}</span>
                </p>
                <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
                  {r.changes.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        </section>
      </article>
    </PublicPage>
  );
}
