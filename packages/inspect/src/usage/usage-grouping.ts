/**
 * The groupings and orders of `usage`, in a module of their own with no imports, so that a command line can list them
 * in its help without loading the code that counts.
 */

/** Every way `usage` groups sessions: per day, ISO week or month of their first time, per session, per model. */
export const USAGE_GROUPINGS = ['day', 'week', 'month', 'session', 'model'] as const;

/** How `usage` groups sessions. */
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

/** The orders `usage` lists periods and models in: oldest (or first by name) first, or last first. */
export const USAGE_ORDERS = ['asc', 'desc'] as const;

/** The order `usage` lists periods and models in. */
export type UsageOrder = (typeof USAGE_ORDERS)[number];
