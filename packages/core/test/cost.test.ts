import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BUILT_IN_PRICE_TABLE,
  costAtRates,
  modelKeyOf,
  modelRatesOf,
  type PriceTable,
  parsePriceTable,
  parsePriceTableText,
  usageCost,
} from '@cursor-stream/core/cost';
import type { Usage, UsageCountField } from '@cursor-stream/core/events';
import { fc, test as propTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';

const PRICED_KEYS = Object.keys(BUILT_IN_PRICE_TABLE.models);

/**
 * The cost of `usage` at `row`'s rates worked out apart from the code under test: each rate as a whole number of
 * micro-dollars per million tokens, the products summed exactly as BigInts, divided once at the end.
 */
function exactCost(usage: Usage, row: { [k in UsageCountField]-?: number | null }): number | null {
  let micro = 0n;
  for (const field of ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const) {
    const count = usage[field] ?? 0;
    if (count === 0) continue;
    const rate = row[field];
    if (rate === null) return null;
    micro += BigInt(count) * BigInt(Math.round(rate * 1e6));
  }
  return Number(micro) / 1e12;
}

function rowRates(key: string) {
  const row = BUILT_IN_PRICE_TABLE.models[key];
  if (row === undefined) throw new Error(`no row ${key}`);
  return {
    inputTokens: row.input,
    outputTokens: row.output,
    cacheReadTokens: row.cacheRead,
    cacheWriteTokens: row.cacheWrite,
  };
}

const tokenCount = fc.integer({ min: 0, max: 2_000_000_000 });
const usageArb = fc.record(
  {
    inputTokens: tokenCount,
    outputTokens: tokenCount,
    cacheReadTokens: tokenCount,
    cacheWriteTokens: tokenCount,
  },
  { requiredKeys: [] },
);

function closeTo(actual: number | null, expected: number | null): void {
  if (expected === null) expect(actual).toBeNull();
  else {
    expect(actual).not.toBeNull();
    expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(Math.max(1e-12, expected * 1e-12));
  }
}

describe('the built-in price table', () => {
  test('is a price table as parsePriceTable reads one, each row with a source and a date', () => {
    const read = parsePriceTable(BUILT_IN_PRICE_TABLE);
    expect(read.ok).toBe(true);
    for (const row of Object.values(BUILT_IN_PRICE_TABLE.models)) {
      expect(row.source).toMatch(/\S/);
      expect(row.asOf).toMatch(/20\d\d/);
    }
  });

  test('prices a captured turn of Composer 2.5 at its rates: 0.5 in, 2.5 out, 0.2 cache read per million', () => {
    const usage = { inputTokens: 9681, outputTokens: 1000, cacheReadTokens: 56018, cacheWriteTokens: 0 };
    // 9681 * 0.5 + 1000 * 2.5 + 56018 * 0.2 = 18544.1 per million
    closeTo(usageCost(usage, 'Composer 2.5'), 0.0185441);
  });

  test('prices Anthropic cache writes at their own rate, not the input rate', () => {
    closeTo(usageCost({ cacheWriteTokens: 1_000_000 }, 'Claude 4.5 Sonnet'), 3.75);
    closeTo(usageCost({ inputTokens: 1_000_000 }, 'Claude 4.5 Sonnet'), 3);
  });

  propTest.prop([fc.constantFrom(...PRICED_KEYS), usageArb])(
    "a priced model's cost is the table's arithmetic, worked out independently",
    (key, usage) => {
      closeTo(usageCost(usage, key), exactCost(usage, rowRates(key)));
    },
  );
});

describe('unknown costs', () => {
  test('a model the table lacks, or no model, costs null, never 0', () => {
    const usage = { inputTokens: 10, outputTokens: 10 };
    expect(usageCost(usage, 'GLM 5.3')).toBeNull();
    expect(usageCost(usage, 'some-new-model')).toBeNull();
    expect(usageCost(usage, undefined)).toBeNull();
    expect(usageCost({}, 'some-new-model')).toBeNull();
  });

  test('a count whose rate is not known makes the cost unknown; a zero count of it does not', () => {
    expect(usageCost({ inputTokens: 100, cacheReadTokens: 5 }, 'Composer 1')).toBeNull();
    closeTo(usageCost({ inputTokens: 100, cacheReadTokens: 0 }, 'Composer 1'), 0.000125);
  });

  test("Composer 2.5 Fast, Cursor's default, prices its cache reads at 6x Standard's, as its other rates are", () => {
    closeTo(
      usageCost({ inputTokens: 18_411, outputTokens: 131, cacheReadTokens: 5_959 }, 'Composer 2.5 Fast'),
      (18_411 * 3 + 131 * 15 + 5_959 * 1.2) / 1e6,
    );
  });

  test('a fast variant is priced by its own row, else by the fast multiplier, else unknown', () => {
    expect(modelRatesOf('Composer 2.5 Fast')?.key).toBe('composer-2.5-fast');
    // gpt-5.5 has no fast row; its multiplier is 2.5
    closeTo(usageCost({ outputTokens: 1_000_000 }, 'GPT-5.5 Extra High Fast'), 75);
    // claude-opus-4-7 by prefix, 6x
    closeTo(usageCost({ inputTokens: 1_000_000 }, 'claude-opus-4-7-thinking-high-fast'), 30);
    expect(usageCost({ inputTokens: 1 }, 'GPT-5.6 Sol 1M High Fast')).toBeNull();
  });

  propTest.prop([fc.string({ maxLength: 40 }), usageArb])(
    'the cost is null exactly when the model has no rates, or a count that is not 0 has no rate',
    (model, usage) => {
      const rates = modelRatesOf(model);
      const cost = usageCost(usage, model);
      if (rates === null) expect(cost).toBeNull();
      else expect(cost === null).toBe(costAtRates(usage, rates.rates) === null);
    },
  );
});

describe('cost in tokens', () => {
  const increase = fc.record({
    inputTokens: tokenCount,
    outputTokens: tokenCount,
    cacheReadTokens: tokenCount,
    cacheWriteTokens: tokenCount,
  });
  propTest.prop([fc.constantFrom(...PRICED_KEYS), usageArb, increase])(
    'never falls when a count rises, and is never negative',
    (key, usage, more) => {
      const before = usageCost(usage, key);
      const grown: Usage = {
        inputTokens: (usage.inputTokens ?? 0) + more.inputTokens,
        outputTokens: (usage.outputTokens ?? 0) + more.outputTokens,
        cacheReadTokens: (usage.cacheReadTokens ?? 0) + more.cacheReadTokens,
        cacheWriteTokens: (usage.cacheWriteTokens ?? 0) + more.cacheWriteTokens,
      };
      const after = usageCost(grown, key);
      if (before !== null && after !== null) {
        expect(before).toBeGreaterThanOrEqual(0);
        expect(after).toBeGreaterThanOrEqual(before);
      }
      // Growing counts can only make a known cost unknown (a rate not known now counted), never the reverse.
      if (before === null) expect(after).toBeNull();
    },
  );
});

describe("Cursor's model names", () => {
  const rows = readFileSync(join(import.meta.dirname, 'fixtures/model-names.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t'));

  test.each(rows)('the %s %s is priced as %s %s', (_form, name, priceKey, fast) => {
    const read = modelKeyOf(name as string);
    expect(read).not.toBeNull();
    const key =
      read?.fast && Object.hasOwn(BUILT_IN_PRICE_TABLE.models, `${read.key}-fast`)
        ? `${read.key}-fast`
        : read?.key;
    expect([key, read?.fast]).toEqual([priceKey, fast === 'fast']);
  });

  test("every model of the CLI's list has a row, so no session on one of them costs unknown", () => {
    const unpriced = rows
      .map(([, name, priceKey]) => [name, priceKey])
      .filter(([, priceKey]) => !Object.hasOwn(BUILT_IN_PRICE_TABLE.models, priceKey as string));
    expect(unpriced).toEqual([]);
  });

  test('names no rule reads, and absurdly long ones, have no key', () => {
    expect(modelKeyOf('')).toBeNull();
    expect(modelKeyOf('a model of my own')).toBeNull();
    expect(modelKeyOf(`gpt-5 ${'x'.repeat(100_000)}`)).toBeNull();
    expect(modelKeyOf(`${'1 k '.repeat(40)}auto`)?.key).toBe('auto');
  });

  test('a table of its own can name models with aliases, compared without case', () => {
    const table: PriceTable = {
      unit: 'usd-per-million-tokens',
      models: {
        mine: { input: 1, output: 2, cacheRead: null, cacheWrite: null, source: 'test', asOf: '2026-01-01' },
      },
      aliases: { 'My Model': 'mine' },
    };
    closeTo(usageCost({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, 'my model', table), 3);
    expect(usageCost({ inputTokens: 1 }, 'Composer 2.5', table)).toBeNull();
    expect(usageCost({ inputTokens: 1 }, '__proto__', table)).toBeNull();
    expect(usageCost({ inputTokens: 1 }, 'constructor', table)).toBeNull();
  });
});

describe('reading another table', () => {
  test('reads one and names every problem of a bad one, with a code', () => {
    const text = JSON.stringify({
      unit: 'usd-per-million-tokens',
      models: { a: { input: 1, output: 1, cacheRead: 0.1, cacheWrite: 1, source: 's', asOf: '2026' } },
    });
    const good = parsePriceTableText(text);
    expect(good.ok && good.value.models.a?.input).toBe(1);

    const bad = parsePriceTable({
      unit: 'usd',
      models: { a: { input: -1, output: '2', cacheRead: null, cacheWrite: 1, asOf: '2026' }, b: 3 },
      aliases: { x: 1 },
      fastMultipliers: { exact: { a: 'x' }, prefix: [] },
    });
    expect(bad).toEqual({
      ok: false,
      error: {
        code: 'invalid-price-table',
        message: 'not a price table: unit is not "usd-per-million-tokens", the only unit read',
        problems: [
          'unit is not "usd-per-million-tokens", the only unit read',
          'models["a"].input is not a rate (a number of dollars, 0 or more)',
          'models["a"].output is not a rate (a number of dollars, 0 or more)',
          'models["a"].source is not a text (every price says where and when it was read)',
          'models["b"] is not an object',
          'aliases["x"] is not a price key',
          'fastMultipliers.exact["a"] is not a number, 0 or more',
          'fastMultipliers.prefix is not an object',
        ],
      },
    });
    const notJson = parsePriceTableText('{"unit":');
    expect(!notJson.ok && notJson.error.code).toBe('invalid-json');
    expect(!parsePriceTableText('[]').ok).toBe(true);
  });

  propTest.prop([fc.jsonValue()])(
    'never throws on any JSON, and what it accepts prices without throwing',
    (value) => {
      const read = parsePriceTable(value);
      if (read.ok)
        for (const key of Object.keys(read.value.models)) usageCost({ inputTokens: 1 }, key, read.value);
    },
  );
});
