/** The shape that tells an `@cursor/sdk` message from the CLI's records of the same `type`s. */

import type { JsonObject } from '../dialect.ts';

/** Whether a record is an `SDKMessage`: the SDK names its agent and run on every message, which the CLI never does. */
export function isSdkMessage(record: JsonObject): boolean {
  return (
    typeof record.type === 'string' &&
    typeof record.agent_id === 'string' &&
    typeof record.run_id === 'string'
  );
}
