import type { Kysely } from "kysely";
import type { Database, PlanFeature } from "db/schema";

/** A plan as the screens and other areas see it (numbers, not bigint; money in cents). */
export interface Plan {
  id: string;
  name: string;
  priceCents: number;
  currency: string;
  periodDays: number;
  description: string;
  suppressionLimit: number;
  containerLimit: number;
  apiAccess: boolean;
  popular: boolean;
  features: PlanFeature[];
}

type Db = Kysely<Database>;

const planColumns = [
  "id",
  "name",
  "price_cents",
  "currency",
  "period_days",
  "description",
  "suppression_limit",
  "container_limit",
  "api_access",
  "popular",
  "features",
] as const;

function toPlan(r: {
  id: string;
  name: string;
  price_cents: number;
  currency: string;
  period_days: number;
  description: string;
  suppression_limit: bigint;
  container_limit: bigint;
  api_access: boolean;
  popular: boolean;
  features: PlanFeature[];
}): Plan {
  return {
    id: r.id,
    name: r.name,
    priceCents: r.price_cents,
    currency: r.currency,
    periodDays: r.period_days,
    description: r.description,
    suppressionLimit: Number(r.suppression_limit),
    containerLimit: Number(r.container_limit),
    apiAccess: r.api_access,
    popular: r.popular,
    features: typeof r.features === "string" ? (JSON.parse(r.features) as PlanFeature[]) : r.features,
  };
}

/** The catalogue in display order (archived plans are hidden). */
export async function listPlans(db: Db): Promise<Plan[]> {
  const rows = await db.selectFrom("plans").select(planColumns).where("archived", "=", false).orderBy("sort_order").execute();
  return rows.map(toPlan);
}

export async function getPlan(db: Db, id: string): Promise<Plan | undefined> {
  const row = await db.selectFrom("plans").select(planColumns).where("id", "=", id).where("archived", "=", false).executeTakeFirst();
  return row ? toPlan(row) : undefined;
}
