/**
 * The groupings of `usage`, in a module of their own with no imports, so that a command line can list them in its
 * help without loading the code that counts.
 */

/** Every way `usage` groups sessions: per UTC day, per session, per model. */
export const USAGE_GROUPINGS = ['day', 'session', 'model'] as const;

/** How `usage` groups sessions. */
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];
