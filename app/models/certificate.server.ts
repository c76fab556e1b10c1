import type { Kysely } from "kysely";
import type { Database } from "db/schema";
import type { CertificateFile } from "scrub-service/domain";
import { isUuid } from "~/utils/ids";
import { isAdminViewer, type Viewer } from "./purge.server";

export type { CertificateFile, ScrubCertificate } from "scrub-service/domain";
export { keyMap, publishedKeys, type PublishedKey } from "scrub-service";

export interface StoredCertificate {
  jobId: string;
  /** The certificate file exactly as issued. */
  text: string;
  file: CertificateFile;
}

/**
 * A job's certificate for its owner (admins: any, when `adminSeesAll`). Scoped by the certificate's own
 * user_id, so it is found after the job's result files (or the job row) are gone.
 */
export async function getCertificate(
  db: Kysely<Database>,
  viewer: Viewer,
  jobId: string,
  opts: { adminSeesAll?: boolean } = {},
): Promise<StoredCertificate | undefined> {
  if (!isUuid(jobId)) return undefined;
  let q = db.selectFrom("scrub_certificates").select(["job_id", "document"]).where("job_id", "=", jobId);
  if (!(opts.adminSeesAll && isAdminViewer(viewer))) q = q.where("user_id", "=", viewer.id);
  const row = await q.executeTakeFirst();
  if (!row) return undefined;
  return { jobId: row.job_id, text: row.document, file: JSON.parse(row.document) as CertificateFile };
}

/** Which of these jobs have a certificate (history rows). */
export async function jobsWithCertificates(db: Kysely<Database>, jobIds: string[]): Promise<Set<string>> {
  if (!jobIds.length) return new Set();
  const rows = await db.selectFrom("scrub_certificates").select("job_id").where("job_id", "in", jobIds).execute();
  return new Set(rows.map((r) => r.job_id));
}

export function certificateFileName(jobId: string): string {
  return `scrub-certificate-${jobId}.json`;
}
