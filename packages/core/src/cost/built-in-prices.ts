/**
 * The built-in price table: USD per million tokens for each model Cursor offers, each price with where it was read
 * and when. Cursor bills individual plans at the providers' API rates, so a provider's row is its published price;
 * `auto` and `composer-*` are Cursor's own. Models whose price was not found are left out, so their cost is unknown.
 * Kept as data: edit the rows, not the code that reads them, and give each changed row its source and date.
 */

import type { PriceTable } from './price-table.ts';

/** The price table used when none is given, in the format {@link parsePriceTable} reads. */
export const BUILT_IN_PRICE_TABLE: PriceTable = {
  unit: 'usd-per-million-tokens',
  models: {
    auto: {
      input: 1.25,
      output: 6,
      cacheRead: 0.25,
      cacheWrite: 1.25,
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price. Cursor Auto routing. Same numbers on the Cursor pricing page as quoted 2025-12 (bhupendranegi.com) and on token-plan.pages.dev.',
    },
    'composer-2.5': {
      input: 0.5,
      output: 2.5,
      cacheRead: 0.2,
      cacheWrite: 0.5,
      source:
        'https://token-plan.pages.dev/en/cursor-token-api/ ("Pricing and model data sourced from official vendor websites")',
      asOf: '2026 (page undated; lists Composer 2.5 as current)',
      note: 'Cache writes are billed at the input price. Standard tier. Cache write not published separately; set to input as for Composer 2.',
    },
    'composer-2.5-fast': {
      input: 3,
      output: 15,
      cacheRead: 1.2,
      cacheWrite: 3,
      source: 'https://lushbinary.com/blog/composer-2-5-cost-optimization-fast-vs-standard-tier/',
      asOf: '2026-05-19',
      note: "Cache writes are billed at the input price. Fast tier: 6x Standard on both published rates; the cache-read rate is not published and is 6x Standard's $0.20 likewise, as the fast multipliers below apply to every rate.",
    },
    'composer-2': {
      input: 0.5,
      output: 2.5,
      cacheRead: 0.2,
      cacheWrite: 0.5,
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price.',
    },
    'composer-2-fast': {
      input: 1.5,
      output: 7.5,
      cacheRead: 0.35,
      cacheWrite: 1.5,
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price.',
    },
    'composer-1.5': {
      input: 3.5,
      output: 17.5,
      cacheRead: 0.35,
      cacheWrite: 3.5,
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price.',
    },
    'composer-1': {
      input: 1.25,
      output: 10,
      cacheRead: null,
      cacheWrite: 1.25,
      source:
        'https://token-plan.pages.dev/en/cursor-token-api/ ("Pricing and model data sourced from official vendor websites")',
      asOf: '2026 (page undated; lists Composer 2.5 as current)',
      note: 'Cache writes are billed at the input price. cache-read price not found',
    },
    'claude-fable-5-1': {
      input: 10,
      output: 50,
      cacheRead: 0.25,
      cacheWrite: 12.5,
      source:
        'https://platform.claude.com/docs/en/about-claude/pricing as tabulated by docs.rs synaps 0.10.2 src pricing (verified 2026-10-10) and the Opus 5 "how it compares" table',
      asOf: '2026-10-10',
      note: 'Cache read 0.025x input per the table; 5m cache write assumed 1.25x and 1h write 2x input (not stated in the excerpt).',
    },
    'claude-fable-5': {
      input: 10,
      output: 50,
      cacheRead: 1,
      cacheWrite: 12.5,
      source:
        'https://platform.claude.com/docs/en/about-claude/pricing as tabulated by docs.rs synaps 0.10.2 src pricing (verified 2026-10-10) and the Opus 5 "how it compares" table',
      asOf: '2026-10-10',
      note: 'Cache read 0.10x, 5m write 1.25x (standard multipliers).',
    },
    'claude-opus-5-5': {
      input: 4,
      output: 20,
      cacheRead: 0.2,
      cacheWrite: 5,
      source: 'https://platform.claude.com/docs/zh-CN/models/opus-5-5/overview',
      asOf: '2026 (page in index)',
    },
    'claude-opus-5': {
      input: 5,
      output: 25,
      cacheRead: 0.5,
      cacheWrite: 6.25,
      source: 'https://platform.claude.com/docs/en/models/opus-5/overview',
      asOf: 'page read via index, 2026 (Opus 5 released 2026-07-24)',
    },
    'claude-opus-4-8': {
      input: 5,
      output: 25,
      cacheRead: 0.5,
      cacheWrite: 6.25,
      source:
        'models.dev snapshot embedded in ryoppippi/ccusage rust/crates/ccusage/src/models-dev-pricing.json (commit 54d318f2a9170d4ed91a63d628eab0d0898305ed, 2026-06-12)',
      asOf: '2026-06-12',
      note: 'Also Cursor docs (opencode-cursor CLAUDE_OPUS_COST) and docs.rs tokr pricing.toml.',
    },
    'claude-opus-4-7': {
      input: 5,
      output: 25,
      cacheRead: 0.5,
      cacheWrite: 6.25,
      source:
        'models.dev snapshot embedded in ryoppippi/ccusage rust/crates/ccusage/src/models-dev-pricing.json (commit 54d318f2a9170d4ed91a63d628eab0d0898305ed, 2026-06-12)',
      asOf: '2026-06-12',
      note: 'Also Cursor docs (opencode-cursor CLAUDE_OPUS_COST) and docs.rs tokr pricing.toml.',
    },
    'claude-opus-4-6': {
      input: 5,
      output: 25,
      cacheRead: 0.5,
      cacheWrite: 6.25,
      source:
        'models.dev snapshot embedded in ryoppippi/ccusage rust/crates/ccusage/src/models-dev-pricing.json (commit 54d318f2a9170d4ed91a63d628eab0d0898305ed, 2026-06-12)',
      asOf: '2026-06-12',
      note: 'Also Cursor docs (opencode-cursor CLAUDE_OPUS_COST) and docs.rs tokr pricing.toml.',
    },
    'claude-opus-4-5': {
      input: 5,
      output: 25,
      cacheRead: 0.5,
      cacheWrite: 6.25,
      source:
        'models.dev snapshot embedded in ryoppippi/ccusage rust/crates/ccusage/src/models-dev-pricing.json (commit 54d318f2a9170d4ed91a63d628eab0d0898305ed, 2026-06-12)',
      asOf: '2026-06-12',
      note: 'Also Cursor docs (opencode-cursor CLAUDE_OPUS_COST) and docs.rs tokr pricing.toml.',
    },
    'claude-opus-4-6-fast': {
      input: 30,
      output: 150,
      cacheRead: 3,
      cacheWrite: 37.5,
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cursor "Fast" Opus 4.6 = 6x (CLAUDE_OPUS_FAST_COST). Fast multipliers of newer Opus models in Cursor were not found.',
    },
    'claude-sonnet-5-5': {
      input: 2,
      output: 10,
      cacheRead: 0.1,
      cacheWrite: 2.5,
      source:
        'https://platform.claude.com/docs/zh-CN/models/sonnet-5-5/overview; cache-read cut to $0.10 from 2026-10-07 per kurofune/claudit v1.9.2 (2026-10-25) and TheKrush/PromptFuel v1.0.23 (2026-10-16)',
      asOf: '2026-10-07',
      note: 'Cache read was $0.20 until 2026-10-06.',
    },
    'claude-sonnet-5': {
      input: 2,
      output: 10,
      cacheRead: 0.2,
      cacheWrite: 2.5,
      source: 'https://platform.claude.com/docs/zh-CN/models/sonnet-5/overview',
      asOf: '2026',
    },
    'claude-sonnet-4-6': {
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
      longContext: {
        thresholdTokens: 200000,
        input: 6,
        output: 22.5,
        cacheRead: 0.6,
        cacheWrite: 7.5,
      },
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'models.dev snapshot agrees on 3/15/0.3/3.75.',
    },
    'claude-sonnet-4-5': {
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
      longContext: {
        thresholdTokens: 200000,
        input: 6,
        output: 22.5,
        cacheRead: 0.6,
        cacheWrite: 7.5,
      },
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'models.dev snapshot agrees on 3/15/0.3/3.75.',
    },
    'claude-sonnet-4': {
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
    },
    'claude-haiku-5-5': {
      input: 0.1,
      output: 0.5,
      cacheRead: 0.01,
      cacheWrite: 0.125,
      longContext: {
        thresholdTokens: 100000,
        input: 0.5,
        output: 2.5,
        cacheRead: 0.05,
        cacheWrite: 0.625,
      },
      source:
        "kurofune/claudit release v1.9.2 (https://github.com/kurofune/claudit/releases/tag/v1.9.2) and TheKrush/PromptFuel v1.0.23, both citing Anthropic's pricing page; effective 2026-10-07",
      asOf: '2026-10-07',
      note: 'Prompt (input+cache) <= 100k tokens; above that the whole request is billed at the long rates.',
    },
    'claude-haiku-4-5': {
      input: 1,
      output: 5,
      cacheRead: 0.1,
      cacheWrite: 1.25,
      source:
        'models.dev snapshot embedded in ryoppippi/ccusage rust/crates/ccusage/src/models-dev-pricing.json (commit 54d318f2a9170d4ed91a63d628eab0d0898305ed, 2026-06-12)',
      asOf: '2026-06-12',
    },
    'gpt-5.6-sol': {
      input: 5,
      output: 30,
      cacheRead: 0.5,
      cacheWrite: 5,
      longContext: {
        thresholdTokens: 272000,
        input: 10,
        output: 45,
        cacheRead: 1,
      },
      source:
        "https://docs.laozhang.ai/en/announcements/gpt-5-6-pricing-2026-07.md and https://docs.apiyi.com/live/2026-07/gpt-5-6-terra-luna-price-cut.md (resellers quoting OpenAI's 2026-07-30 price change); https://dev.to/hassann/how-to-use-the-gpt-56-api-sol-terra-and-luna-10f0",
      asOf: '2026-07-30',
      note: 'Cache writes are billed at the input price. Unchanged by the 2026-07-30 cut.',
    },
    'gpt-5.6-terra': {
      input: 2,
      output: 12,
      cacheRead: 0.2,
      cacheWrite: 2,
      longContext: {
        thresholdTokens: 272000,
        input: 4,
        output: 18,
        cacheRead: 0.4,
      },
      source:
        "https://docs.laozhang.ai/en/announcements/gpt-5-6-pricing-2026-07.md and https://docs.apiyi.com/live/2026-07/gpt-5-6-terra-luna-price-cut.md (resellers quoting OpenAI's 2026-07-30 price change); https://dev.to/hassann/how-to-use-the-gpt-56-api-sol-terra-and-luna-10f0",
      asOf: '2026-07-30',
      note: 'Cache writes are billed at the input price. Was 2.5/15/0.25 until 2026-07-29.',
    },
    'gpt-5.6-luna': {
      input: 0.2,
      output: 1.2,
      cacheRead: 0.02,
      cacheWrite: 0.2,
      longContext: {
        thresholdTokens: 272000,
        input: 0.4,
        output: 1.8,
        cacheRead: 0.04,
      },
      source:
        "https://docs.laozhang.ai/en/announcements/gpt-5-6-pricing-2026-07.md and https://docs.apiyi.com/live/2026-07/gpt-5-6-terra-luna-price-cut.md (resellers quoting OpenAI's 2026-07-30 price change); https://dev.to/hassann/how-to-use-the-gpt-56-api-sol-terra-and-luna-10f0",
      asOf: '2026-07-30',
      note: 'Cache writes are billed at the input price. Was 1/6/0.1 until 2026-07-29.',
    },
    'gpt-5.5': {
      input: 5,
      output: 30,
      cacheRead: 0.5,
      cacheWrite: 5,
      longContext: {
        thresholdTokens: 272000,
        input: 10,
        output: 45,
        cacheRead: 1,
      },
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price.',
    },
    'gpt-5.4': {
      input: 2.5,
      output: 15,
      cacheRead: 0.25,
      cacheWrite: 2.5,
      longContext: {
        thresholdTokens: 272000,
        input: 5,
        output: 22.5,
        cacheRead: 0.5,
      },
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price.',
    },
    'gpt-5.4-fast': {
      input: 5,
      output: 30,
      cacheRead: 0.5,
      cacheWrite: 5,
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price. Cursor "Fast" = 2x for GPT-5.4.',
    },
    'gpt-5.4-mini': {
      input: 0.75,
      output: 4.5,
      cacheRead: 0.075,
      cacheWrite: 0.75,
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price.',
    },
    'gpt-5.4-nano': {
      input: 0.2,
      output: 1.25,
      cacheRead: 0.02,
      cacheWrite: 0.2,
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price.',
    },
    'gpt-5.3-codex': {
      input: 1.75,
      output: 14,
      cacheRead: 0.175,
      cacheWrite: 1.75,
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price.',
    },
    'gpt-5.2': {
      input: 1.75,
      output: 14,
      cacheRead: 0.175,
      cacheWrite: 1.75,
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price.',
    },
    'gpt-5.1': {
      input: 1.25,
      output: 10,
      cacheRead: 0.125,
      cacheWrite: 1.25,
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price.',
    },
    'gpt-5': {
      input: 1.25,
      output: 10,
      cacheRead: 0.125,
      cacheWrite: 1.25,
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price. Not in the April 2026 Cursor table; assumed equal to gpt-5.1 (same OpenAI tier). Unverified.',
    },
    'gpt-5-mini': {
      input: 0.25,
      output: 2,
      cacheRead: 0.025,
      cacheWrite: 0.25,
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price.',
    },
    'gemini-3.1-pro': {
      input: 2,
      output: 12,
      cacheRead: 0.2,
      cacheWrite: 2,
      longContext: {
        thresholdTokens: 200000,
        input: 4,
        output: 18,
        cacheRead: 0.4,
        cacheWrite: 4,
      },
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price.',
    },
    'gemini-3-flash': {
      input: 0.5,
      output: 3,
      cacheRead: 0.05,
      cacheWrite: 0.5,
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price.',
    },
    'gemini-3.8-flash': {
      input: 0.75,
      output: 3.75,
      cacheRead: 0.075,
      cacheWrite: 0.75,
      source:
        'https://github.com/BerriAI/litellm/discussions/39357 ("$0.75 / MTok input and $3.75 / MTok output, going to $1.50 / $7.50 on January 1, 2027. Cache reads are $0.075"); https://vercel.com/ai-gateway/models/gemini-3.8-flash',
      asOf: '2026 (promo until 2026-12-31)',
      note: 'Cache writes are billed at the input price. Promotional price through 2026-12-31; $1.50/$7.50 from 2027-01-01.',
    },
    'gemini-3.7-flash': {
      input: 0.75,
      output: 3.75,
      cacheRead: 0.075,
      cacheWrite: 0.75,
      source:
        'https://ai.google.dev/gemini-api/docs/whats-new-gemini-3.7 (introductory $0.75 / $3.75 "until the end of the year"); models.dev providers/google/models/gemini-3.7-flash.toml (standard $1.50 / $7.50 / $0.15)',
      asOf: '2026-08-13 (promo until 2026-12-31)',
      note: 'Cache writes are billed at the input price. Promotional price through 2026-12-31; $1.50/$7.50, cache read $0.15, from 2027-01-01. Cursor slugs: gemini-3.7-flash-low, -medium, -high.',
    },
    'gemini-3.6-flash': {
      input: 0.75,
      output: 3.75,
      cacheRead: 0.075,
      cacheWrite: 0.75,
      source:
        'models.dev providers/google/models/gemini-3.6-flash.toml (commit 3f2765a5, citing ai.google.dev/gemini-api/docs/pricing#gemini-3.6-flash); simstudioai/sim PR #5812 (2026-07-21: launched at $1.50 / $7.50 / $0.15)',
      asOf: '2026-08-19 (promo until 2026-12-31)',
      note: "Cache writes are billed at the input price. Cut to the Gemini 3.7 launch rate through 2026-12-31; $1.50/$7.50, cache read $0.15, from 2027-01-01. Google's own row was read only in copies.",
    },
    'gemini-3.5-flash': {
      input: 1.5,
      output: 9,
      cacheRead: 0.15,
      cacheWrite: 1.5,
      source:
        'https://ai.google.dev/gemini-api/docs/pricing (as copied 2026-09-20 in api-evangelist/gemini plans/gemini-plans-pricing.yml and 2026-10-07 in api-evangelist/deepmind plans/deepmind-plans-pricing.yml); models.dev providers/google/models/gemini-3.5-flash.toml (commit 133a0b012, 2026-06-03)',
      asOf: '2026-10-07',
      note: 'Cache writes are billed at the input price (Google bills cache storage by the hour, not per token written). One rate across the 1M context.',
    },
    'grok-4.7': {
      input: 2,
      output: 6,
      cacheRead: 0.5,
      cacheWrite: 2,
      longContext: {
        thresholdTokens: 200000,
        input: 4,
        output: 12,
        cacheRead: 1,
      },
      source:
        'https://apidog.com/blog/how-to-use-grok-4-7-api/ (2026-09-29: "$2 per million input tokens, $0.50 … cached input … $6 … output for prompts under 200,000 tokens"; ≥200k $4/$1/$12); https://docs.apiyi.com/models/grok-4-5.md, /ja/models/grok-4-6.md',
      asOf: '2026-09-21',
      note: 'Cache writes are billed at the input price. Cursor slugs: grok-4.7-*, cursor-grok-4.6-*, cursor-grok-4.5-*.',
    },
    'grok-4.6': {
      input: 2,
      output: 6,
      cacheRead: 0.5,
      cacheWrite: 2,
      longContext: {
        thresholdTokens: 200000,
        input: 4,
        output: 12,
        cacheRead: 1,
      },
      source:
        'https://apidog.com/blog/how-to-use-grok-4-7-api/ (2026-09-29: "$2 per million input tokens, $0.50 … cached input … $6 … output for prompts under 200,000 tokens"; ≥200k $4/$1/$12); https://docs.apiyi.com/models/grok-4-5.md, /ja/models/grok-4-6.md',
      asOf: '2026-09-21',
      note: 'Cache writes are billed at the input price. Cursor slugs: grok-4.7-*, cursor-grok-4.6-*, cursor-grok-4.5-*.',
    },
    'grok-4.5': {
      input: 2,
      output: 6,
      cacheRead: 0.5,
      cacheWrite: 2,
      longContext: {
        thresholdTokens: 200000,
        input: 4,
        output: 12,
        cacheRead: 1,
      },
      source:
        'https://apidog.com/blog/how-to-use-grok-4-7-api/ (2026-09-29: "$2 per million input tokens, $0.50 … cached input … $6 … output for prompts under 200,000 tokens"; ≥200k $4/$1/$12); https://docs.apiyi.com/models/grok-4-5.md, /ja/models/grok-4-6.md',
      asOf: '2026-09-21',
      note: 'Cache writes are billed at the input price. Cursor slugs: grok-4.7-*, cursor-grok-4.6-*, cursor-grok-4.5-*.',
    },
    'grok-4-20': {
      input: 2,
      output: 6,
      cacheRead: 0.2,
      cacheWrite: 2,
      longContext: {
        thresholdTokens: 200000,
        input: 4,
        output: 12,
        cacheRead: 0.4,
        cacheWrite: 4,
      },
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price. Conflicts with docs.apiyi.com (2026-07-13: grok-4.20 $1.25/$2.50).',
    },
    'kimi-k3': {
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3,
      source:
        'https://platform.kimi.ai/docs/pricing/chat-k3 as cited in getagentseal/codeburn PR #709 (2026-07); https://docs.apiyi.com/en/models/kimi-k3.md',
      asOf: '2026-07-16',
      note: 'Cache writes are billed at the input price.',
    },
    'kimi-k2.7-code': {
      input: 0.95,
      output: 4,
      cacheRead: 0.19,
      cacheWrite: 0.95,
      source:
        "https://platform.kimi.ai/docs/pricing/chat-k27-code (as verified 2026-08-27 in pydantic/genai-prices PR #626); Cursor's models-and-pricing page as cited in robinebers/openusage PR #907 (2026-07-08: $0.95 / $0.19 / $4); models.dev providers/moonshotai/models/kimi-k2.7-code.toml",
      asOf: '2026-08-27',
      note: "Cache writes are billed at the input price. Moonshot's highspeed variant bills twice every rate; Cursor is not known to offer it.",
    },
    'kimi-k2.5': {
      input: 0.6,
      output: 3,
      cacheRead: 0.1,
      cacheWrite: 0.6,
      source:
        'https://cursor.com/docs/models-and-pricing (as transcribed in Nomadcxx/opencode-cursor src/models/pricing.ts, commit 1195a61d6ade7a51e364fba960ec3eed9579bbe9, 2026-04-29; merged in PR #67)',
      asOf: '2026-04-29',
      note: 'Cache writes are billed at the input price.',
    },
    'glm-5.2': {
      input: 1.4,
      output: 4.4,
      cacheRead: 0.26,
      cacheWrite: 1.4,
      source:
        "Cursor's models-and-pricing page as cited in robinebers/openusage PR #781 (2026-06-27: $1.4 in, $0.26 cache read, $4.4 out); models.dev providers/zai/models/glm-5.2.toml (commit 4e85eac00, 2026-06-26)",
      asOf: '2026-06-27',
      note: 'Cache writes are billed at the input price (Z.AI lists cache storage as free for a limited time). Cursor slugs: glm-5.2-high, glm-5.2-max.',
    },
    'muse-spark-1.3': {
      input: 1.25,
      output: 4.25,
      cacheRead: 0.15,
      cacheWrite: 1.25,
      source:
        "https://dev.meta.ai/docs/pricing-rate-limits (as verified 2026-09-02 in harn-vm 0.10.170 src/llm/catalog_sources/60-models/12-meta.toml); Cursor's models-and-pricing page as cited in robinebers/openusage PR #1244 (2026-09-10); https://vercel.com/ai-gateway/models/muse-spark-1.3",
      asOf: '2026-09-10',
      note: "Cache writes are billed at the input price. The standard tier; Meta's contributor tier (which may train on the prompts) is cheaper and not what Cursor bills.",
    },
  },
  fastMultipliers: {
    exact: {
      'gpt-5.5': 2.5,
      'gpt-5.4': 2,
      'gpt-5.3-codex': 2,
    },
    prefix: {
      'claude-opus-4-6': 6,
      'claude-opus-4-7': 6,
      'claude-opus-4-8': 2,
    },
    source:
      'ryoppippi/ccusage rust/crates/ccusage/src/fast-multiplier-overrides.json (HEAD 5816e640e8824986f33427203da164b01394a161, 2026-06-13); Cursor docs via opencode-cursor for gpt-5.4 (2x) and claude-4.6-opus (6x)',
    note: 'Applies to every rate, cache included (ccusage). Cursor "... Fast" variants are assumed to bill at the provider fast/priority rate; only gpt-5.4 and claude-4.6-opus are confirmed by Cursor\'s own table.',
  },
};
