import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation, useSubmit } from "@remix-run/react";
import { useState } from "react";
import { getDb } from "~/utils/db.server";
import { clientIp } from "~/accounts/auth.server";
import { env } from "~/utils/env.server";
import { verifyUpload } from "~/proof/verify-form.server";
import { fieldOfSubject, VERIFY_FILE_FIELDS } from "~/proof/verify-fields";
import { CertificateView } from "~/components/proof/certificate-view";
import { buttonClass } from "~/components/ui/form";

export const meta: MetaFunction = () => [{ title: "Verify a Scrub Certificate · Data Purging Tool" }];

export async function loader() {
  return null;
}

/**
 * Public: checks an uploaded certificate against the published keys and, when given, the files it names.
 * With JavaScript the browser hashes the files (SubtleCrypto) and sends only their SHA-256; without, the
 * files are streamed here and hashed on the way (never stored).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const outcome = await verifyUpload(await getDb(), request, env().MAX_UPLOAD_BYTES, clientIp(context));
  return data(outcome, { status: outcome.error && "status" in outcome && outcome.status ? outcome.status : 200 });
}

const FILE_LABEL = {
  input: "Original input file (optional)",
  good: "Good file (optional)",
  bad: "Bad file (optional)",
  invalid: "Invalid file (optional)",
} as const;

async function sha256Hex(file: File): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await file.arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

export default function VerifyPage() {
  const data = useActionData<typeof action>();
  const submit = useSubmit();
  const navigation = useNavigation();
  const [hashing, setHashing] = useState(false);
  const busy = hashing || navigation.state !== "idle";

  /** With JavaScript: hash the chosen files here and send the certificate with their SHA-256 only. */
  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    if (!globalThis.crypto?.subtle) return; // the plain form posts the files
    e.preventDefault();
    const form = e.currentTarget;
    const out = new FormData();
    const cert = (form.elements.namedItem("certificate") as HTMLInputElement).files?.[0];
    if (cert) out.append("certificate", cert, cert.name);
    setHashing(true);
    try {
      for (const f of VERIFY_FILE_FIELDS) {
        const file = (form.elements.namedItem(f) as HTMLInputElement).files?.[0];
        if (file) out.append(`${f}Sha256`, await sha256Hex(file));
      }
    } finally {
      setHashing(false);
    }
    submit(out, { method: "post", encType: "multipart/form-data" });
  }

  const result = data?.result;
  return (
    <main className="mx-auto max-w-3xl px-4 py-8">
      <header className="mb-6 space-y-2">
        <h1 className="text-2xl font-bold text-slate-900">Verify a Scrub Certificate</h1>
        <p className="text-sm text-slate-600">
          Check that a certificate was signed by this service and was not changed, and that your files are the ones it describes. You can also check it on your
          own computer with <code>npm run verify</code> and the keys at{" "}
          <a href="/.well-known/scrub-certificate-key" className="text-blue-700 underline">
            /.well-known/scrub-certificate-key
          </a>
          .
        </p>
      </header>
      <Form method="post" encType="multipart/form-data" onSubmit={onSubmit} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <label className="block text-sm font-medium text-slate-700">
          Certificate (certificate.json)
          <input name="certificate" type="file" accept=".json,application/json" required className="mt-1 block w-full text-sm" />
        </label>
        {VERIFY_FILE_FIELDS.map((f) => (
          <label key={f} className="block text-sm font-medium text-slate-700">
            {FILE_LABEL[f]}
            <input name={f} type="file" className="mt-1 block w-full text-sm" />
          </label>
        ))}
        <button type="submit" className={buttonClass} disabled={busy}>
          {hashing ? "Hashing files…" : "Verify"}
        </button>
      </Form>
      {data?.error ? (
        <p role="alert" className="mt-6 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {data.error}
        </p>
      ) : null}
      {result ? (
        <section className="mt-6 space-y-4" data-testid="verify-result">
          <p
            role="status"
            className={`rounded-md border px-3 py-2 text-sm font-semibold ${result.ok ? "border-green-200 bg-green-50 text-green-800" : "border-red-200 bg-red-50 text-red-800"}`}
          >
            {result.ok
              ? "Verified: everything checked matches."
              : `Does not match: ${result.checks
                  .filter((c) => !c.ok)
                  .map((c) => c.subject)
                  .join(", ")}.`}
          </p>
          <ul className="space-y-1 text-sm">
            {result.checks.map((c) => {
              const by = result.hashedBy[fieldOfSubject(c.subject) ?? "input"];
              return (
                <li key={c.subject} className={c.ok ? "text-slate-700" : "font-medium text-red-700"} data-testid={`check-${c.subject}`}>
                  {c.ok ? "✓" : "✗"} <span className="font-medium">{c.subject}</span>: {c.detail}
                  {fieldOfSubject(c.subject) && by ? ` (hashed ${by === "browser" ? "in your browser" : "on the server"})` : ""}
                </li>
              );
            })}
          </ul>
          {result.certificate ? <CertificateView file={result.certificate} /> : null}
        </section>
      ) : null}
      <p className="mt-8 text-sm">
        <Link to="/" className="text-blue-700 underline">
          Home
        </Link>
      </p>
    </main>
  );
}
