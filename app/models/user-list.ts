/** The User Management list's filter values and page size, shared by its query and its screen. */
export const USERS_PAGE_SIZE = 10;
export const STATUS_FILTERS = ["Active", "Blocked", "Pending"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

/** Plan filter value for users without an active plan. */
export const NO_PLAN = "none";
