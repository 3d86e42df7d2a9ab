import { describe, expect, it } from 'vitest';
import { createTableExporter, type Row, type Table } from '../src/index.ts';
import { jsonText } from '../src/json-text.ts';
import { createOtlpExporter } from '../src/otlp/index.ts';
import { feedLog, ndjson } from './export-fixtures.ts';

/** A tool call whose arguments nest deeper than JSON.stringify can recurse. */
const DEPTH = 100_000;
const deepArgs = `{"command":"x","nested":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`;
const DEEP_LOG = `${ndjson([{ type: 'system', subtype: 'init', session_id: 's', model: 'Auto' }])}{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"shellToolCall":{"args":${deepArgs}}},"session_id":"s"}
${ndjson([{ type: 'result', subtype: 'success', is_error: false, result: 'ok', session_id: 's' }])}`;

describe('records nested too deeply to serialize', () => {
  it('are exported as the invalid lines the tokenizer makes of them, and the export goes on', async () => {
    const events: Row[] = [];
    const exporter = createTableExporter({
      removeLog: async () => {},
      insert: async (table: Table, rows: readonly Row[]) => {
        if (table.name === 'events') events.push(...rows);
      },
      close: async () => {},
    });
    await feedLog(exporter, 'deep.ndjson', DEEP_LOG);
    const totals = await exporter.close();
    expect(totals.sessions).toBe(1);
    const invalid = events.find((row) => row.type === 'invalid-line');
    expect(invalid?.line).toBe(2);
    expect(events.map((row) => row.type)).toContain('finish');
  });

  it('do not end the trace export, with content asked for', async () => {
    const lines: string[] = [];
    const exporter = await createOtlpExporter({
      includeContent: true,
      target: { kind: 'json-lines', writeLine: async (line) => void lines.push(line) },
    });
    await feedLog(exporter, 'deep.ndjson', DEEP_LOG);
    await exporter.close();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"invoke_agent cursor-agent"');
  });

  it('are written as a note when built in memory, where no tokenizer bounded them', () => {
    let deep: unknown = [];
    for (let depth = 0; depth < DEPTH; depth++) deep = [deep];
    expect(JSON.parse(jsonText({ deep }))).toHaveProperty('unserializable');
    expect(jsonText({ a: [1, 'b'] })).toBe('{"a":[1,"b"]}');
  });
});
