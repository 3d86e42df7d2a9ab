/**
 * `pnpm --filter @cursor-stream/bench run chart RESULTS.json CHART.svg`: writes the chart of a `pnpm bench --json`
 * report (`render-chart.ts`).
 */

import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { renderChart } from './render-chart.ts';
import type { BenchReport } from './report.ts';

async function main(argv: readonly string[]): Promise<void> {
  const [input, output] = argv.filter((arg) => arg !== '--');
  if (input === undefined || output === undefined) throw new Error('usage: chart RESULTS.json CHART.svg');
  // pnpm runs the script from the bench folder; INIT_CWD is where the user typed the command.
  const base = process.env.INIT_CWD ?? process.cwd();
  const report = JSON.parse(await readFile(resolve(base, input), 'utf8')) as BenchReport;
  await writeFile(resolve(base, output), renderChart(report));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
