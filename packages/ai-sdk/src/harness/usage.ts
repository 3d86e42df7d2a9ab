/**
 * Cursor's token counts (`result.usage`: `inputTokens`, `outputTokens`, `cacheReadTokens`, `cacheWriteTokens`) as
 * the AI SDK's usage. Cursor's `inputTokens` counts the input that was neither read from nor written to the cache:
 * real captures report more cache reads than input tokens (`inputTokens` 12909 with `cacheReadTokens` 20224), which
 * a total that included them could not. So `inputTokens` is the AI SDK's `noCache`, and the input total is the sum
 * of the three. A count the log does not give stays unknown (`undefined`), never 0; so does a total one of whose
 * parts is unknown. Cursor reports no split of the output into text and reasoning.
 */

import type { HarnessV1StreamPart } from '@ai-sdk/harness';
import { allInputTokens, checkUsage, type Usage } from '@cursor-stream/core/normalize';

/** The AI SDK's usage (`LanguageModelV4Usage`). */
export type HarnessUsage = Extract<HarnessV1StreamPart, { type: 'finish' }>['totalUsage'];

/** Usage that says nothing: every count unknown. */
export function unknownUsage(): HarnessUsage {
  return {
    inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: undefined, text: undefined, reasoning: undefined },
  };
}

/**
 * The AI SDK's usage of a turn from its `result.usage` (the canonical `finish` event's `usage`): `inputTokens.total`
 * = input + cache reads + cache writes, `noCache` = Cursor's `inputTokens`, `cacheRead`, `cacheWrite`,
 * `outputTokens.total` = Cursor's `outputTokens`; `raw` holds the counts as the log gave them. Counts that are not
 * whole numbers of tokens are left unknown.
 */
export function cursorUsage(usage: Usage | undefined): HarnessUsage {
  const { usage: counts } = checkUsage(usage);
  if (counts === null) return unknownUsage();
  const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens } = counts;
  return {
    inputTokens: {
      total: allInputTokens(counts),
      noCache: inputTokens,
      cacheRead: cacheReadTokens,
      cacheWrite: cacheWriteTokens,
    },
    outputTokens: { total: outputTokens, text: undefined, reasoning: undefined },
    raw: { ...counts },
  };
}
