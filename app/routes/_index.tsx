import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { PricingCards } from "~/components/pricing";
import { listPlans } from "~/models/plan.server";
import { getDb } from "~/utils/db.server";

export const meta: MetaFunction = () => [
  { title: "Data Purging Tool · Clean phone lists against DNC and litigation lists" },
  {
    name: "description",
    content:
      "Remove duplicates, invalid numbers and do-not-call numbers from your phone lists. Containers for your own suppression lists, a state filter and a REST API.",
  },
];

/** Public landing page: the plan cards come from the plan catalogue. */
export async function loader() {
  const plans = await listPlans(await getDb());
  return { plans };
}

const OFFICE = {
  street: "1450 Brickell Avenue, Suite 1800",
  city: "Miami, FL 33131",
  country: "United States",
  phone: "+1 (305) 555-0148",
  phoneHref: "tel:+13055550148",
  email: "support@datapurgingtool.com",
  hours: "Monday to Friday, 9:00 AM – 6:00 PM ET",
};

const nav = [
  { href: "#features", label: "Features" },
  { href: "#pricing", label: "Pricing" },
  { href: "#about", label: "About" },
  { href: "#api", label: "API" },
  { href: "#docs", label: "Docs" },
  { href: "#support", label: "Support" },
  { href: "#contact", label: "Contact" },
];

const features = [
  {
    title: "Smart Storage",
    text: "Keep your own suppression lists in containers grouped by category, and add numbers by hand or from a CSV file at any time.",
    icon: "M4 7h16M4 12h16M4 17h16M6 4h12a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z",
  },
  {
    title: "Fast Processing",
    text: "Process millions of numbers in minutes: streamed uploads, parallel workers and live progress while your list is scrubbed.",
    icon: "M13 2 4 14h7l-1 8 9-12h-7l1-8z",
  },
  {
    title: "Enterprise Security",
    text: "Encrypted connections, hashed API keys, per-account isolation and an audit trail. Your lists are never shared.",
    icon: "M6 11h12v9H6zM8 11V8a4 4 0 0 1 8 0v3",
  },
  {
    title: "Team Collaboration",
    text: "Bring your team in with roles for users and administrators, shared history and results everyone can download.",
    icon: "M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM3 20a6 6 0 0 1 12 0M16 5a3 3 0 0 1 0 6M18 20a6 6 0 0 0-3-5.2",
  },
];

const apiSample = `curl -X POST https://app.datapurgingtool.com/api/v1/scrubs \\
  -H "Authorization: Bearer $DPT_API_KEY" \\
  -F file=@leads.csv \\
  -F suppression_type=DNCAndLitigation`;

export default function Landing() {
  const { plans } = useLoaderData<typeof loader>();
  const signedIn = Boolean((useRouteLoaderData("root") as { user?: unknown } | undefined)?.user);
  return (
    <div className="min-h-screen bg-white text-slate-900">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
          <Link to="/" className="flex items-center gap-2 text-lg font-semibold tracking-tight whitespace-nowrap">
            <span aria-hidden className="flex h-8 w-8 shrink-0 items-center justify-center rounded-lg bg-blue-600 text-white">
              ⌫
            </span>
            <span className="sr-only sm:not-sr-only">Data Purging Tool</span>
          </Link>
          <nav aria-label="Sections" className="hidden items-center gap-5 text-sm text-slate-600 lg:flex">
            {nav.map((n) => (
              <a key={n.href} href={n.href} className="hover:text-slate-900">
                {n.label}
              </a>
            ))}
          </nav>
          <div className="flex items-center gap-2">
            {signedIn && (
              <Link to="/dashboard" className="hidden rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap text-blue-700 hover:bg-blue-50 sm:block">
                Dashboard
              </Link>
            )}
            <Link to="/login" className="rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap text-slate-700 hover:bg-slate-100">
              Sign In
            </Link>
            <Link to="/signup" className="rounded-md bg-blue-600 px-4 py-2 text-sm font-medium whitespace-nowrap text-white shadow-sm hover:bg-blue-700">
              Get Started
            </Link>
          </div>
        </div>
      </header>

      <main id="main">
        <section className="relative overflow-hidden bg-gradient-to-b from-blue-50 to-white">
          <div className="mx-auto max-w-6xl px-4 py-20 text-center sm:py-28">
            <p className="mx-auto mb-4 inline-block rounded-full bg-blue-100 px-3 py-1 text-xs font-semibold tracking-wide text-blue-800 uppercase">
              DNC and litigation suppression
            </p>
            <h1 className="mx-auto max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">Clean phone lists you can call with confidence</h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600">
              Remove duplicates, invalid numbers and numbers on do-not-call and litigation lists. Filter by state, keep your own suppression containers, and
              download good, bad and invalid results in minutes.
            </p>
            <div className="mt-10 flex flex-wrap justify-center gap-3">
              <Link to="/signup" className="rounded-md bg-blue-600 px-6 py-3 text-base font-semibold text-white shadow-sm hover:bg-blue-700">
                Create Your Account
              </Link>
              <a href="#features" className="rounded-md border border-slate-300 bg-white px-6 py-3 text-base font-semibold text-slate-800 hover:bg-slate-50">
                Learn More
              </a>
            </div>
          </div>
        </section>

        <section id="features" aria-labelledby="features-title" className="scroll-mt-20 py-20">
          <div className="mx-auto max-w-6xl px-4">
            <h2 id="features-title" className="text-center text-3xl font-bold tracking-tight">
              Everything you need to purge your lists
            </h2>
            <p className="mx-auto mt-3 max-w-2xl text-center text-slate-600">Built for marketers and compliance teams who call at scale.</p>
            <div className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              {features.map((f) => (
                <article key={f.title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm" data-testid="feature-card">
                  <span aria-hidden className="flex h-10 w-10 items-center justify-center rounded-lg bg-blue-100 text-blue-700">
                    <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
                      <path d={f.icon} />
                    </svg>
                  </span>
                  <h3 className="mt-4 text-lg font-semibold">{f.title}</h3>
                  <p className="mt-2 text-sm text-slate-600">{f.text}</p>
                </article>
              ))}
            </div>
          </div>
        </section>

        <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-20 bg-slate-50 py-20">
          <div className="mx-auto max-w-6xl px-4">
            <h2 id="pricing-title" className="text-center text-3xl font-bold tracking-tight">
              Simple monthly pricing
            </h2>
            <p className="mx-auto mt-3 mb-12 max-w-2xl text-center text-slate-600">
              Duplicate suppression is unlimited on every plan. Prices in USD per month.
            </p>
            <PricingCards plans={plans} href={() => "/signup"} />
          </div>
        </section>

        <section id="about" aria-labelledby="about-title" className="scroll-mt-20 py-20">
          <div className="mx-auto grid max-w-6xl gap-10 px-4 md:grid-cols-2 md:items-center">
            <div>
              <h2 id="about-title" className="text-3xl font-bold tracking-tight">
                About us
              </h2>
              <p className="mt-4 text-slate-600">
                Data Purging Tool helps businesses reach the right people and stay clear of costly TCPA complaints. We check every number against the litigation
                and do-not-call lists you choose, fail closed when a list cannot be checked, and never let a suppressed number into your good file.
              </p>
            </div>
            <dl className="grid grid-cols-2 gap-4">
              {[
                ["+1", "US, Canada and Caribbean numbers in any common format; undialable ones flagged"],
                ["3", "result files: good, bad and invalid"],
                ["50", "states in the state filter"],
                ["24/7", "API access on Business and Premium"],
              ].map(([value, label]) => (
                <div key={label} className="rounded-xl border border-slate-200 p-5">
                  <dt className="text-sm text-slate-600">{label}</dt>
                  <dd className="order-first text-2xl font-bold text-blue-700">{value}</dd>
                </div>
              ))}
            </dl>
          </div>
        </section>

        <section id="api" aria-labelledby="api-title" className="scroll-mt-20 bg-slate-900 py-20 text-white">
          <div className="mx-auto grid max-w-6xl gap-10 px-4 md:grid-cols-2 md:items-center">
            <div>
              <h2 id="api-title" className="text-3xl font-bold tracking-tight">
                A REST API for your systems
              </h2>
              <p className="mt-4 text-slate-300">
                Submit lists, poll progress, download results and add numbers to containers from your own CRM or dialer. Webhooks tell you when a scrub
                finishes, signed so you know they came from us. 1000 requests per hour per key.
              </p>
              <Link to="/docs/api" className="mt-6 inline-block rounded-md bg-white px-4 py-2 text-sm font-semibold text-slate-900 hover:bg-slate-100">
                Read the API reference
              </Link>
            </div>
            <pre className="overflow-x-auto rounded-xl bg-slate-800 p-5 text-sm leading-relaxed text-slate-100" aria-label="Example API request">
              <code>{apiSample}</code>
            </pre>
          </div>
        </section>

        <section id="docs" aria-labelledby="docs-title" className="scroll-mt-20 py-20">
          <div className="mx-auto max-w-6xl px-4">
            <h2 id="docs-title" className="text-3xl font-bold tracking-tight">
              Documentation
            </h2>
            <ul className="mt-8 grid gap-4 sm:grid-cols-3">
              <li className="rounded-xl border border-slate-200 p-5">
                <Link to="/docs/api" className="font-semibold text-blue-700 hover:underline">
                  API reference
                </Link>
                <p className="mt-1 text-sm text-slate-600">Endpoints, errors, rate limits and webhook signatures.</p>
              </li>
              <li className="rounded-xl border border-slate-200 p-5">
                <a href="/api/v1/openapi.json" className="font-semibold text-blue-700 hover:underline">
                  OpenAPI document
                </a>
                <p className="mt-1 text-sm text-slate-600">Generate a client in the language you use.</p>
              </li>
              <li className="rounded-xl border border-slate-200 p-5">
                <Link to="/terms" className="font-semibold text-blue-700 hover:underline">
                  Terms of Service
                </Link>{" "}
                ·{" "}
                <Link to="/privacy" className="font-semibold text-blue-700 hover:underline">
                  Privacy Policy
                </Link>
                <p className="mt-1 text-sm text-slate-600">Billing, cancellation and how we handle your data.</p>
              </li>
            </ul>
          </div>
        </section>

        <section id="support" aria-labelledby="support-title" className="scroll-mt-20 bg-slate-50 py-20">
          <div className="mx-auto max-w-6xl px-4">
            <h2 id="support-title" className="text-3xl font-bold tracking-tight">
              Support
            </h2>
            <p className="mt-4 max-w-2xl text-slate-600">
              Questions about a purge, your plan or the API? Our team answers {OFFICE.hours}. E-mail{" "}
              <a href={`mailto:${OFFICE.email}`} className="font-medium text-blue-700 hover:underline">
                {OFFICE.email}
              </a>{" "}
              or call{" "}
              <a href={OFFICE.phoneHref} className="font-medium text-blue-700 hover:underline">
                {OFFICE.phone}
              </a>
              .
            </p>
          </div>
        </section>
      </main>

      <footer id="contact" aria-labelledby="contact-title" className="scroll-mt-20 border-t border-slate-200 bg-white">
        <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:grid-cols-3">
          <div>
            <p className="text-lg font-semibold">Data Purging Tool</p>
            <p className="mt-2 text-sm text-slate-600">Phone list purging and do-not-contact suppression.</p>
          </div>
          <div>
            <h2 id="contact-title" className="text-sm font-semibold tracking-wide text-slate-900 uppercase">
              Contact
            </h2>
            <address className="mt-2 text-sm leading-6 text-slate-600 not-italic">
              {OFFICE.street}
              <br />
              {OFFICE.city}
              <br />
              {OFFICE.country}
              <br />
              <a href={OFFICE.phoneHref} className="hover:underline">
                {OFFICE.phone}
              </a>
              <br />
              <a href={`mailto:${OFFICE.email}`} className="hover:underline">
                {OFFICE.email}
              </a>
            </address>
          </div>
          <nav aria-label="Footer" className="text-sm">
            <h2 className="font-semibold tracking-wide text-slate-900 uppercase">Links</h2>
            <ul className="mt-2 space-y-1 text-slate-600">
              <li>
                <Link to="/privacy" className="hover:underline">
                  Privacy
                </Link>
              </li>
              <li>
                <Link to="/terms" className="hover:underline">
                  Terms
                </Link>
              </li>
              <li>
                <Link to="/docs/api" className="hover:underline">
                  API reference
                </Link>
              </li>
              <li>
                <Link to="/login" className="hover:underline">
                  Sign In
                </Link>
              </li>
            </ul>
          </nav>
        </div>
        <p className="border-t border-slate-100 py-4 text-center text-xs text-slate-500">
          © {new Date().getFullYear()} Data Purging Tool. All rights reserved.
        </p>
      </footer>
    </div>
  );
}
