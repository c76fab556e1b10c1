import type { ColumnType, Generated } from "kysely";

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type RoleName = "NormalUser" | "UnlimitedUser" | "Admin" | "SuperAdmin";
/** Draft: signed up, e-mail not confirmed. Pending: invited, not set up. */
export type UserStatus = "Draft" | "Pending" | "Active" | "Blocked";

export interface UsersTable {
  id: Generated<string>;
  email: string;
  first_name: string;
  last_name: string;
  company: string;
  phone_number: string;
  password_hash: string | null;
  role: RoleName;
  status: UserStatus;
  email_confirmed: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  deleted_at: NullableTimestamp;
}

export interface SessionsTable {
  /** sha256 of the cookie's session id: a leaked table does not give working cookies. */
  id_hash: string;
  user_id: string | null;
  data: ColumnType<Record<string, unknown>, string, string>;
  expires_at: Timestamp;
  created_at: Generated<Date>;
}

export type AuthTokenKind = "activation" | "reset" | "invitation";

export interface AuthTokensTable {
  id: Generated<string>;
  user_id: string;
  kind: AuthTokenKind;
  token_hash: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface EmailOutboxTable {
  id: Generated<string>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: Generated<Date>;
  sent_at: NullableTimestamp;
  error: string | null;
}

export interface LoginThrottleTable {
  /** e.g. "email:ann@example.com" or "ip:127.0.0.1" */
  key: string;
  failures: number;
  window_start: Timestamp;
  locked_until: NullableTimestamp;
}

export interface AuditLogTable {
  id: Generated<string>;
  actor_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: Generated<Date>;
}

export interface AppSecretsTable {
  name: string;
  value: string;
}

export interface AccountsTables {
  app_secrets: AppSecretsTable;
  users: UsersTable;
  sessions: SessionsTable;
  auth_tokens: AuthTokensTable;
  email_outbox: EmailOutboxTable;
  login_throttle: LoginThrottleTable;
  audit_log: AuditLogTable;
}
