import { getDb } from "~/utils/db.server";
import { publishedKeys } from "~/models/certificate.server";

/**
 * Public: every key that signs or ever signed scrub certificates (current and retired), by key id, so a
 * certificate can be checked without trusting the page that shows it.
 */
export async function loader() {
  const keys = await publishedKeys(await getDb());
  return new Response(JSON.stringify({ algorithm: "Ed25519", format: "raw 32-byte public key, base64", keys }, null, 2) + "\n", {
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  });
}
