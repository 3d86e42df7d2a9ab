/**
 * The groupings of `usage`, in a module of their own with no imports, so that the command line can list them in
 * `--help` without loading the code that reads logs.
 */

/** Every way `usage` groups sessions: per UTC day, per session, per model. */
export const USAGE_GROUPINGS = ['day', 'session', 'model'] as const;

/** How `usage` groups sessions. */
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];
