/**
 * `@ai-sdk/harness`, an optional peer dependency, loaded when a session starts rather than when this entry is
 * imported: the entry imports (and its builtin tools describe themselves) without it, and a missing package is one
 * clear error from `createSession`.
 */

import type { AgentRunError, AgentRunErrorCode } from '@cursor-stream/node/agent-protocol';
import { CURSOR_HARNESS_ID } from './harness-id.ts';

/** The harness package's error raised by a turn or a command that failed: a `HarnessError` with the run's `code`. */
export type CursorAgentError = Error & { readonly code: AgentRunErrorCode };

/** What the harness uses of `@ai-sdk/harness` at run time. */
export interface HarnessPackage {
  /** A `HarnessError` for a failed run, whose message the agent passes on to users as it is. */
  agentError(error: AgentRunError): CursorAgentError;
  /** A `HarnessCapabilityUnsupportedError`. */
  unsupported(message: string): Error;
  /** A `HarnessError` for misuse of a session. */
  harnessError(message: string): Error;
  /** The package's own shell quoting, for the one command line a sandbox runs. */
  shellQuote(value: string): string;
}

let loading: Promise<HarnessPackage> | undefined;

async function load(): Promise<HarnessPackage> {
  try {
    const [{ HarnessError, HarnessCapabilityUnsupportedError }, { shellQuote }] = await Promise.all([
      import('@ai-sdk/harness'),
      import('@ai-sdk/harness/utils'),
    ]);
    return {
      agentError: (error) =>
        Object.assign(new HarnessError({ message: error.message }), { code: error.code }),
      unsupported: (message) =>
        new HarnessCapabilityUnsupportedError({ message, harnessId: CURSOR_HARNESS_ID }),
      harnessError: (message) => new HarnessError({ message }),
      shellQuote,
    };
  } catch (thrown) {
    const code = (thrown as { code?: unknown } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw Object.assign(
        new Error('createCursorHarness needs @ai-sdk/harness: install it with npm install @ai-sdk/harness'),
        { code: 'missing-package' },
      );
    }
    throw thrown;
  }
}

/** Loads `@ai-sdk/harness` once (a failed load is tried again next time). */
export function loadHarnessPackage(): Promise<HarnessPackage> {
  loading ??= load().catch((thrown: unknown) => {
    loading = undefined;
    throw thrown;
  });
  return loading;
}
