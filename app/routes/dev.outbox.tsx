import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Fragment } from "react";
import { clientIp, getOptionalUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { listOutbox, outboxPageEnabled, splitLinks } from "~/utils/email.server";
import { inputClass, secondaryButtonClass } from "~/components/ui/form";
import { isAdmin } from "~/models/user-permissions";

export const meta: MetaFunction = () => [{ title: "Dev outbox · Data Purging Tool" }, { name: "robots", content: "noindex" }];

function isLoopback(ip: string): boolean {
  return ip === "127.0.0.1" || ip === "::1" || ip === "::ffff:127.0.0.1" || ip.startsWith("127.");
}

/**
 * Development-only list of the e-mails the outbox holds (no SMTP_URL). 404 in production or with SMTP.
 * Open to requests from this machine (a newcomer's first run, e2e tests) and to signed-in admins.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!outboxPageEnabled()) throw new Response("Not Found", { status: 404 });
  if (!isLoopback(clientIp(context))) {
    const user = await getOptionalUser(request);
    if (!user || !isAdmin(user.role)) throw new Response("Not Found", { status: 404 });
  }
  const to = new URL(request.url).searchParams.get("to")?.trim() || undefined;
  const messages = (await listOutbox(await getDb(), { to, limit: 100 })).map((m) => ({ ...m, parts: splitLinks(m.text) }));
  return data({ messages, to: to ?? "" }, { headers: { "Cache-Control": "no-store" } });
}

function Linkified({ parts }: { parts: { text: string; link: boolean }[] }) {
  return (
    <>
      {parts.map((part, i) =>
        part.link ? (
          <a key={i} href={part.text} className="break-all text-blue-600 underline">
            {part.text}
          </a>
        ) : (
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}

export default function DevOutbox() {
  const { messages, to } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-3xl p-6">
      <div className="mb-4 flex items-center justify-between gap-4">
        <div>
          <h1 className="text-xl font-semibold">Dev outbox</h1>
          <p className="text-sm text-slate-600">
            E-mails the app would have sent (no <code>SMTP_URL</code> set). Newest first. Development only.
          </p>
        </div>
        <Link to="/login" className="text-sm text-blue-600 hover:underline">
          Sign in
        </Link>
      </div>
      <Form method="get" className="mb-6 flex gap-2">
        <label htmlFor="outbox-to" className="sr-only">
          Recipient
        </label>
        <input id="outbox-to" name="to" type="email" defaultValue={to} placeholder="Filter by recipient" className={inputClass} />
        <button type="submit" className={secondaryButtonClass}>
          Filter
        </button>
      </Form>
      {messages.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center text-sm text-slate-500">No e-mails yet.</p>
      ) : (
        <ul className="space-y-4">
          {messages.map((m) => (
            <li key={m.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="outbox-message">
              <p className="font-medium">{m.subject}</p>
              <p className="text-xs text-slate-500">
                To <span data-testid="outbox-to">{m.to}</span> · <time dateTime={m.createdAt}>{m.createdAt.replace("T", " ").slice(0, 19)} UTC</time>
              </p>
              <pre className="mt-3 whitespace-pre-wrap font-sans text-sm text-slate-800">
                <Linkified parts={m.parts} />
              </pre>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
