import type { ColumnType, Generated } from "kysely";
import type { NullableTimestamp } from "./accounts";

/** A signed scrub certificate (migration 0007). No foreign keys: it outlives result files, job and account. */
export interface ScrubCertificatesTable {
  job_id: string;
  user_id: string;
  /** The certificate file exactly as issued (canonical JSON: certificate + signature). */
  document: string;
  key_id: string;
  created_at: Generated<Date>;
}

/** Ed25519 keys that sign certificates; retired keys stay so old certificates keep verifying. */
export interface CertificateKeysTable {
  id: string;
  /** Raw 32-byte public key, base64. */
  public_key: string;
  /** PKCS#8 PEM; null for a key given in CERT_SIGNING_KEY. */
  private_key: string | null;
  created_at: Generated<Date>;
  retired_at: NullableTimestamp;
}

/** Admin settings, one row per setting. */
export interface AppSettingsTable {
  name: string;
  value: ColumnType<unknown, string, string>;
  updated_by: string | null;
  updated_at: Generated<Date>;
}

export interface ProofTables {
  scrub_certificates: ScrubCertificatesTable;
  certificate_keys: CertificateKeysTable;
  app_settings: AppSettingsTable;
}
