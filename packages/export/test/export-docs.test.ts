import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_QUERIES, TABLES } from '../src/index.ts';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('documentation', () => {
  it('shows in the package README exactly the queries the tests run on DuckDB and ClickHouse', () => {
    const readme = read('../README.md');
    for (const sql of Object.values(EXAMPLE_QUERIES)) expect(readme).toContain(`\`\`\`sql\n${sql}\n\`\`\``);
  });

  it("lists every table's columns, in order, in the package README", () => {
    const readme = read('../README.md');
    for (const table of TABLES) {
      const section = readme.split(`\`${table.name}\`:\n`)[1]?.split('\n\n')[0] ?? '';
      const documented = [...section.matchAll(/^\| `([a-z_]+)` +\|/gm)].map((match) => match[1]);
      expect(documented, table.name).toEqual(table.columns.map((column) => column.name));
    }
  });
});
