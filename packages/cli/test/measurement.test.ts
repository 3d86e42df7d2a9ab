import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scratchFolder } from '@cursor-stream/test-kit/scratch';
import { fc, test as propertyTest } from '@fast-check/vitest';
import { lastJsonLine, median, runInFreshProcess } from 'cursor-stream/measurement';
import { afterAll, describe, expect, test } from 'vitest';

const scratch = scratchFolder('measurement');
afterAll(() => scratch.remove());

async function script(name: string, text: string): Promise<string> {
  const path = join(scratch.dir, name);
  await writeFile(path, text);
  return path;
}

describe('the median', () => {
  propertyTest.prop([fc.array(fc.integer({ min: -1e6, max: 1e6 }), { minLength: 1 })])(
    'has as many values at or below it as at or above it, whatever their order',
    (values) => {
      const middle = median(values);
      expect(values.filter((value) => value <= middle).length).toBeGreaterThanOrEqual(values.length / 2);
      expect(values.filter((value) => value >= middle).length).toBeGreaterThanOrEqual(values.length / 2);
      expect(median([...values].reverse())).toBe(middle);
    },
  );

  test('of an even count is the mean of the two middle values', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('the result line', () => {
  test('is the JSON object on the last line, after whatever came before', () => {
    expect(lastJsonLine('note\n{"a":1}\n{"b":2}\n')).toEqual({ b: 2 });
  });

  test.each(['', 'done\n', '{"a":\n', '{"a":1}\nnote\n', '[1]\n', '{not json}'])(
    'is absent in %j',
    (stdout) => {
      expect(lastJsonLine(stdout)).toBeUndefined();
    },
  );
});

describe('a run in a fresh process', () => {
  test('gives back what the script printed last, with its arguments', async () => {
    const path = await script(
      'prints.mjs',
      'console.log("warming up");\nconsole.log(JSON.stringify({ args: process.argv.slice(2) }));\n',
    );
    expect(await runInFreshProcess(path, ['--x', 'y'])).toEqual({ ok: true, value: { args: ['--x', 'y'] } });
  });

  test('that fails says how, with what it wrote to stderr', async () => {
    const path = await script('fails.mjs', 'console.error("no such row");\nprocess.exit(3);\n');
    const outcome = await runInFreshProcess(path, []);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failure).toMatch(/fails\.mjs/);
    expect(outcome.stderr).toBe('no such row\n');
  });

  test('that prints no result has no process error, only its stderr', async () => {
    const path = await script('silent.mjs', 'console.error("nothing to say");\n');
    expect(await runInFreshProcess(path, [])).toEqual({
      ok: false,
      failure: undefined,
      stderr: 'nothing to say\n',
    });
  });
});
