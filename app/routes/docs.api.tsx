import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { referenceEndpoints, type ReferenceField } from "~/api/openapi";
import { LOOKUP_BURST, LOOKUP_REQUESTS_PER_SECOND } from "~/api/lookup-budget";

export const meta: MetaFunction = () => [{ title: "API Reference · Data Purging Tool" }];

/** The readable API reference (public); rendered from the same object as /api/v1/openapi.json. */
export async function loader() {
  return { endpoints: referenceEndpoints() };
}

const errors: [number, string, string][] = [
  [400, "invalid_json", "The JSON body could not be parsed."],
  [401, "missing_api_key", "No Authorization: Bearer header."],
  [401, "invalid_api_key", "The key is not known."],
  [401, "api_key_revoked", "The key was revoked (or its integration deleted)."],
  [403, "account_disabled", "The account that owns the key is blocked or deleted."],
  [403, "no_plan", "Scrubs and container adds need an active plan."],
  [403, "api_not_in_plan", "The plan does not include API access (Beginner)."],
  [403, "usage_limit_exceeded", "The period's DNC suppression or container limit would be exceeded; details gives the figures."],
  [404, "not_found", "No such job, file, container or endpoint for this account."],
  [405, "method_not_allowed", "The method is not supported here; see the Allow header."],
  [409, "result_not_ready", "The job has not finished; poll it first."],
  [413, "payload_too_large", "The upload is larger than the server's limit."],
  [413, "too_many_fields", "The multipart form has more than 1,000 text fields or 1,100 parts; the message names the limit."],
  [415, "unsupported_media_type", "Send multipart/form-data or application/json."],
  [422, "validation_failed", "A field is missing or invalid; details lists each field."],
  [429, "rate_limited", "More than 1000 requests this hour; wait Retry-After seconds."],
  [429, "too_many_active_jobs", "The account already has its maximum of scrubs queued or running (5); wait for one to finish."],
  [500, "internal_error", "Something failed on our side; retry later."],
];

const methodColor: Record<string, string> = {
  GET: "bg-emerald-100 text-emerald-800",
  POST: "bg-blue-100 text-blue-800",
};

const verifySample = `import crypto from "node:crypto";

// rawBody: the request body exactly as received (before JSON parsing)
function verify(rawBody, headers, secret) {
  const timestamp = headers["x-webhook-timestamp"];
  const expected = "sha256=" + crypto.createHmac("sha256", secret)
    .update(\`\${timestamp}.\${rawBody}\`).digest("hex");
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
  const given = Buffer.from(headers["x-signature"] ?? "");
  return fresh && given.length === expected.length &&
    crypto.timingSafeEqual(given, Buffer.from(expected));
}`;

/** A request's or an answer's fields: name, type and meaning, from the same document as openapi.json. */
function Fields({ title, fields }: { title: string; fields: ReferenceField[] }) {
  if (!fields.length) return null;
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer font-medium text-slate-800">
        {title} ({fields.length})
      </summary>
      <div className="mt-2 overflow-x-auto">
        <table className="min-w-full text-left">
          <thead className="border-b border-slate-200 text-slate-500">
            <tr>
              <th scope="col" className="py-1.5 pr-3 font-medium">
                Field
              </th>
              <th scope="col" className="py-1.5 pr-3 font-medium">
                Type
              </th>
              <th scope="col" className="py-1.5 font-medium">
                Meaning
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 align-top">
            {fields.map((f) => (
              <tr key={f.name}>
                <td className="py-1.5 pr-3 font-mono text-xs break-all">{f.name}</td>
                <td className="py-1.5 pr-3 font-mono text-xs text-slate-600">{f.type}</td>
                <td className="py-1.5 text-slate-700">{f.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function Code({ children }: { children: string }) {
  return (
    <pre className="mt-3 overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm leading-relaxed text-slate-100">
      <code>{children}</code>
    </pre>
  );
}

export default function ApiReference() {
  const { endpoints } = useLoaderData<typeof loader>();
  return (
    <div className="min-h-screen bg-white">
      <header className="border-b border-slate-200">
        <div className="mx-auto flex max-w-5xl items-center justify-between px-4 py-3">
          <Link to="/" className="font-semibold">
            Data Purging Tool
          </Link>
          <nav className="flex gap-4 text-sm text-slate-600">
            <Link to="/integrations" className="hover:text-slate-900">
              Integrations
            </Link>
            <a href="/api/v1/openapi.json" className="hover:text-slate-900">
              openapi.json
            </a>
          </nav>
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-4 py-10">
        <h1 className="text-3xl font-bold tracking-tight">API Reference</h1>
        <p className="mt-3 max-w-3xl text-slate-600">
          Version 1. Base URL <code className="rounded bg-slate-100 px-1">/api/v1</code>. Submit a scrub, poll its progress, download the good, bad and invalid
          files, and add numbers to your containers. The machine-readable description is at{" "}
          <a href="/api/v1/openapi.json" className="text-blue-700 hover:underline">
            /api/v1/openapi.json
          </a>
          .
        </p>

        <nav aria-label="On this page" className="mt-6 flex flex-wrap gap-3 text-sm">
          {["authentication", "rate-limits", "errors", "endpoints", "dialers", "webhooks"].map((id) => (
            <a key={id} href={`#${id}`} className="rounded-full border border-slate-300 px-3 py-1 capitalize hover:bg-slate-50">
              {id.replace("-", " ")}
            </a>
          ))}
        </nav>

        <section id="authentication" className="mt-12 scroll-mt-6">
          <h2 className="text-xl font-semibold">Authentication</h2>
          <p className="mt-2 text-slate-700">
            Create an API key on the{" "}
            <Link to="/integrations" className="text-blue-700 hover:underline">
              Integrations
            </Link>{" "}
            page. It is shown once; we keep only its hash. Send it in every request:
          </p>
          <Code>{`curl https://app.datapurgingtool.com/api/v1/usage \\\n  -H "Authorization: Bearer dpt_…"`}</Code>
          <p className="mt-3 text-sm text-slate-600">
            Work done through the API counts against the same plan limits as the web screens. Scrubs and container adds need a plan with API access (Business or
            Premium).
          </p>
        </section>

        <section id="rate-limits" className="mt-12 scroll-mt-6">
          <h2 className="text-xl font-semibold">Rate limits</h2>
          <p className="mt-2 text-slate-700">
            Each key may make <strong>1000 requests per hour</strong> (fixed hourly windows). With the integration&apos;s rate limiting turned on, all keys of
            that integration share those 1000 requests. Every answer carries <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code>,{" "}
            <code>X-RateLimit-Reset</code> (Unix seconds) and <code>X-RateLimit-Window</code> (seconds); a 429 adds <code>Retry-After</code>.
          </p>
          <p className="mt-2 text-slate-700">
            Live lookups (<code>POST /lookup</code>) have their own budget and do not count against the hourly one: each key may make{" "}
            <strong>{LOOKUP_REQUESTS_PER_SECOND} lookup requests per second</strong>, with bursts of up to {LOOKUP_BURST} after a pause (with the
            integration&apos;s rate limiting turned on, its keys share that budget). Their headers count per second (<code>X-RateLimit-Window: 1</code>); a 429
            says to retry after 1 second. The numbers you look up count against your plan&apos;s DNC suppression usage.
          </p>
        </section>

        <section id="dialers" className="mt-12 scroll-mt-6">
          <h2 className="text-xl font-semibold">Dialers</h2>
          <p className="mt-2 text-slate-700">
            Dialers that already speak a hosted scrub API use the compatibility layer (tag Dialers below; the values to paste are on the{" "}
            <Link to="/integrations" className="text-blue-700 hover:underline">
              Integrations
            </Link>{" "}
            page, VICIdial&apos;s set-up step by step in the README). Each number is decided as a live lookup decides it and counted as one lookup.
          </p>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-700">
            <li>
              <code>/api/compat/dncscrub/scrub</code> (outside <code>/api/v1</code>): the DNCScrub scrub contract. The key in a <code>loginId</code> header or
              field; the CSV answer has no header and one line per number in the order sent. Codes: <code>C</code> on no list (whatever the hour: see{" "}
              <code>DoNotCallToday</code> and <code>CallingWindow</code>), <code>D</code> on a list (<code>Reason</code>: the list&apos;s code), <code>O</code>{" "}
              on a list but cleared by a relationship or consent, <code>E</code> a relationship on no list, <code>I</code> invalid. A refusal is one line{" "}
              <code>ERROR: …</code>.
            </li>
            <li>
              <code>GET /api/v1/check?phone=…</code>: <code>1</code> must not be called now, <code>0</code> may (<code>format=boolean</code>: <code>true</code>/
              <code>false</code>); a refused request answers <code>1</code> too, the reason in <code>X-Check-Error</code>. The key may go in a <code>key</code>{" "}
              query parameter for dialers that can only build URLs: it then sits in their logs and any proxy&apos;s, so give that dialer a key of its own and
              revoke it if it leaks.
            </li>
            <li>
              <code>/api/compat/calls</code>: the dialer&apos;s calls into the call history (VICIdial <code>vicidial_log</code> columns with <code>tz</code> for
              their <code>call_date</code>, or a webhook&apos;s JSON records), so caps count every call it made.
            </li>
          </ul>
        </section>

        <section id="instants-and-stale-lists" className="mt-12 scroll-mt-6">
          <h2 className="text-xl font-semibold">Instants and stale lists</h2>
          <p className="mt-2 text-slate-700">
            An <code>at</code> (on <code>POST /scrubs</code> with <code>calling_window</code> or <code>exemptions</code>, and on <code>POST /lookup</code>)
            means &quot;for calls then&quot;: it may not be earlier than now (5 minutes of clock skew allowed) nor later than the checked lists&apos;
            &quot;valid for calls until&quot; (each list&apos;s release date plus its freshness rule: the federal DNC list 31 days, each state list its own).
            Otherwise the answer is a 422 on <code>at</code> naming the instant and the bound.
          </p>
          <p className="mt-2 text-slate-700">
            A lookup names every list it checks that is past its freshness rule in <code>stale_lists</code> (kind, registry date, age and rule in days); while
            there is one, a number no fresh list holds is answered <code>suppressed_by: &quot;stale_list&quot;</code>, never callable on a stale list&apos;s
            word. With the &quot;refuse stale DNC&quot; setting on, a DNC scrub is refused (422 on <code>suppressionType</code>) naming every stale list at
            once.
          </p>
        </section>

        <section id="result-files" className="mt-12 scroll-mt-6">
          <h2 className="text-xl font-semibold">Result files</h2>
          <p className="mt-2 text-slate-700">
            Each file keeps your columns as read (a cell a spreadsheet would run as a formula is escaped with a leading <code>&apos;</code>, so{" "}
            <code>+1 212 736 4832</code> reads <code>&apos;+1 212 736 4832</code>), then <code>phone_e164</code>: the number read, <code>+1</code> and ten
            digits (<code>+12127364832</code>), the key to import into a dialer; empty in the invalid file, where no number was read. Then:
          </p>
          <ul className="mt-2 list-disc pl-6 text-slate-700">
            <li>
              good: with <code>calling_window</code>, <code>time_zone</code>, <code>callable_now</code>, <code>next_call_at</code> (UTC),{" "}
              <code>next_call_local</code> (the same instant on the number&apos;s clock with its offset, e.g. <code>2026-11-30T08:00:00-05:00</code>) and{" "}
              <code>calling_note</code>, then <code>calls_24h</code> and <code>calls_7d</code> (your call history&apos;s records of the number in the 24 hours
              and 7 days before the instant; a number over a call limit of the scrub&apos;s <code>purpose</code> is not callable now and its note names the
              limit); with <code>exemptions</code>, <code>exemption</code> (the record that lets the number be called).
            </li>
            <li>
              bad: <code>reason</code>; with <code>exemptions</code>, <code>exemption</code>: why a listed number&apos;s record did not apply (&quot;purchase
              2025-05-15: Texas allows 12 months, ended 2026-05-15&quot;, &quot;litigation list: never exempted&quot;).
            </li>
            <li>
              invalid: <code>reason</code>.
            </li>
          </ul>
        </section>

        <section id="errors" className="mt-12 scroll-mt-6">
          <h2 className="text-xl font-semibold">Errors</h2>
          <p className="mt-2 text-slate-700">Errors are JSON with a stable code to branch on and a message for people:</p>
          <Code>{`{ "error": { "code": "rate_limited", "message": "Rate limit of 1000 requests per hour exceeded. Retry after 1200 seconds." } }`}</Code>
          <div className="mt-4 overflow-x-auto">
            <table className="min-w-full text-left text-sm">
              <thead className="border-b border-slate-200 text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Status
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Code
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    Meaning
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {errors.map(([status, code, meaning]) => (
                  <tr key={code}>
                    <td className="py-2 pr-4 font-mono">{status}</td>
                    <td className="py-2 pr-4 font-mono">{code}</td>
                    <td className="py-2 text-slate-700">{meaning}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>

        <section id="endpoints" className="mt-12 scroll-mt-6">
          <h2 className="text-xl font-semibold">Endpoints</h2>
          <div className="mt-4 space-y-4">
            {endpoints.map((e) => (
              <article key={`${e.method} ${e.path}`} className="rounded-xl border border-slate-200 p-5" data-testid="endpoint">
                <h3 className="flex flex-wrap items-center gap-3">
                  <span className={`rounded px-2 py-0.5 font-mono text-xs font-semibold ${methodColor[e.method] ?? "bg-slate-100"}`}>{e.method}</span>
                  <code className="font-mono text-sm">{e.path}</code>
                  <span className="text-sm text-slate-600">{e.summary}</span>
                </h3>
                {e.description && <p className="mt-2 text-sm text-slate-700">{e.description}</p>}
                <Fields title="Request fields" fields={e.requestFields} />
                <Fields title="Answer fields" fields={e.answerFields} />
                <ul className="mt-3 space-y-1 text-sm">
                  {e.statuses.map((s) => (
                    <li key={s.code} className="flex gap-3">
                      <span className="w-10 shrink-0 font-mono text-slate-500">{s.code}</span>
                      <span className="text-slate-700">{s.description}</span>
                    </li>
                  ))}
                </ul>
              </article>
            ))}
          </div>
          <h3 className="mt-8 font-semibold">Example: scrub a JSON list and fetch the good file</h3>
          <Code>{`curl -X POST https://app.datapurgingtool.com/api/v1/scrubs \\
  -H "Authorization: Bearer $DPT_API_KEY" -H "Content-Type: application/json" \\
  -d '{"numbers": ["(212) 555-2142", "2125552143"], "suppression_type": "DNCAndLitigation", "states": ["NY"]}'
# → 202 { "job": { "id": "…", "status": "queued", … } }

curl https://app.datapurgingtool.com/api/v1/scrubs/<id> -H "Authorization: Bearer $DPT_API_KEY"
curl -OJ https://app.datapurgingtool.com/api/v1/scrubs/<id>/files/good -H "Authorization: Bearer $DPT_API_KEY"`}</Code>
        </section>

        <section id="webhooks" className="mt-12 scroll-mt-6">
          <h2 className="text-xl font-semibold">Webhooks</h2>
          <p className="mt-2 text-slate-700">
            Give an integration a webhook URL and we POST a JSON event when a scrub submitted with one of its keys finishes: <code>scrub.completed</code> or{" "}
            <code>scrub.failed</code>, with the job (as GET /scrubs/&#123;id&#125; returns it) under <code>data.job</code>. Answer with a 2xx status within 10
            seconds. With auto retry on, a failed delivery is retried after 1, 2, 4 and 8 seconds (5 attempts in all); every attempt appears in the delivery log
            on the Integrations page. The <code>X-Webhook-Id</code> header and the event&apos;s <code>id</code> stay the same across retries.
          </p>
          <p className="mt-3 text-slate-700">
            Each request is signed with the integration&apos;s webhook secret (shown once when you set the URL):{" "}
            <code>X-Signature: sha256=&lt;hex HMAC-SHA256 of &quot;&lt;X-Webhook-Timestamp&gt;.&lt;raw body&gt;&quot;&gt;</code>. Reject requests whose
            timestamp is more than 5 minutes off.
          </p>
          <Code>{verifySample}</Code>
        </section>
      </main>
    </div>
  );
}
