import type { ColumnType, Generated } from "kysely";

/** A dialer campaign's settings for the compatible scrub (0029, issue #48): its container and exemption list. */
export interface DialerCampaignsTable {
  user_id: string;
  campaign_id: string;
  container_id: number | null;
  exemption_list_id: number | null;
  updated_at: Generated<Date>;
}

/** The last request of each dialer compatibility endpoint per customer (0029): what "test connection" shows. */
export interface DialerLastRequestsTable {
  user_id: string;
  endpoint: "scrub" | "check" | "calls";
  at: ColumnType<Date, Date | string | undefined, Date | string>;
  method: string;
  status: number;
  outcome: "answered" | "refused";
  detail: Generated<string>;
  numbers: number | null;
  campaign_id: string | null;
}

export interface DialersTables {
  dialer_campaigns: DialerCampaignsTable;
  dialer_last_requests: DialerLastRequestsTable;
}
