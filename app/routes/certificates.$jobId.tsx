import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/accounts/auth.server";
import { getDb } from "~/utils/db.server";
import { getCertificate } from "~/models/certificate.server";
import { CertificateView } from "~/components/proof/certificate-view";
import { RouteErrorBoundary } from "~/components/route-error-boundary";

export const meta: MetaFunction = () => [{ title: "Scrub Certificate · Data Purging Tool" }];

/** The printable certificate page (same facts as the JSON); outside the app shell so it prints clean. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const cert = await getCertificate(await getDb(), user, params.jobId ?? "", { adminSeesAll: true });
  if (!cert) throw new Response("No certificate", { status: 404 });
  return { file: cert.file, jobId: cert.jobId };
}

export default function CertificatePage() {
  const { file, jobId } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-3xl px-4 py-8">
      <header className="mb-6 space-y-2">
        <h1 className="text-2xl font-bold text-slate-900">Scrub Certificate</h1>
        <p className="text-sm text-slate-600">
          Signed with Ed25519. Anyone can check it, with the original files, at{" "}
          <Link to="/verify" className="text-blue-700 underline">
            /verify
          </Link>{" "}
          or with <code>npm run verify</code>.
        </p>
        <p className="flex flex-wrap gap-3 text-sm print:hidden">
          <a href={`/certificates/${jobId}.json`} download className="text-blue-700 underline">
            Download certificate (JSON)
          </a>
          <Link to="/history" className="text-blue-700 underline">
            Back to history
          </Link>
        </p>
      </header>
      <CertificateView file={file} />
    </main>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
