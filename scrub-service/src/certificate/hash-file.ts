import crypto from "node:crypto";
import fs from "node:fs";

/** SHA-256 (hex) of a file, streamed (bounded memory whatever its size). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  for await (const chunk of fs.createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
