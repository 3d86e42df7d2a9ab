import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReportLimits } from '@cursor-stream/inspect/report';
import { REPO_ROOT } from '@cursor-stream/test-kit/corpus';
import { runCli } from '@cursor-stream/test-kit/run-cli';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateCorpus } from '../../../corpus/generator/index.ts';
import { writeReport } from '../src/commands/report/run.ts';
import { sampleCalls, sessionLog } from './report-logs.ts';
import { fakeIo } from './support.ts';

async function reportOf(paths: readonly string[], stdin: string[] = [], limits: Partial<ReportLimits> = {}) {
  const { io } = fakeIo(stdin);
  const parts: string[] = [];
  const outcome = await writeReport(paths, { dialect: 'auto', stdin: io.stdin, limits }, async (text) => {
    parts.push(text);
  });
  return { html: parts.join(''), outcome };
}

function count(html: string, pattern: RegExp): number {
  return [...html.matchAll(pattern)].length;
}

let scratch = '';
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'cursor-stream-report-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('the report of one session', () => {
  test('shows status, model, tokens and the failure sentence, one bar per tool call, failures marked', async () => {
    const log = sessionLog({
      sessionId: 'run-1',
      model: 'Composer 2.5',
      calls: sampleCalls(),
      isError: true,
      resultText: 'I could not finish: the directory is missing.',
      usage: { inputTokens: 1200, outputTokens: 34, cacheReadTokens: 500, cacheWriteTokens: 6 },
    });
    const { html, outcome } = await reportOf(['-'], [log]);
    expect(outcome).toMatchObject({ files: 1, invalidLines: 0, errors: [] });
    expect(html).toContain('<span class="badge error">error</span>');
    expect(html).toContain('<span class="model">Composer 2.5</span>');
    expect(html).toContain('1,740 <small>1,200 in · 34 out · 500 cache read · 6 cache write</small>');
    expect(html).toContain('I could not finish: the directory is missing.');
    expect(count(html, /class="bar tool /g)).toBe(3);
    expect(count(html, /class="bar tool failed"/g)).toBe(1);
    expect(html).toMatch(/class="bar tool failed"[^>]*title="shell ls \/missing · failure · 800 ms"/);
    // Two calls overlap in time, so they sit on two lanes; the third starts after both ended.
    expect(count(html, /<div class="lane">/g)).toBe(2 + 2);
    expect(html).toContain('<details class="value failed" open><summary>output');
  });

  test('escapes everything the log holds: a script in a tool output stays text', async () => {
    const log = sessionLog({
      sessionId: '<b>id</b>',
      model: '"><script>x()</script>',
      prompt: '<iframe src=x>',
      calls: sampleCalls(),
    });
    const { html } = await reportOf(['-'], [log]);
    expect(count(html, /<script>/g)).toBe(1); // the page's own, at the end
    expect(html).not.toContain('<script>window.pwned');
    expect(html).toContain('&lt;script&gt;window.pwned = true&lt;/script&gt;');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<iframe');
    expect(html).not.toContain('<b>id</b>');
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
  });

  test('says why a session without a result stopped, in the agent’s own words', async () => {
    const init = JSON.stringify({
      type: 'system',
      subtype: 'init',
      session_id: 'free',
      model: 'gpt-5.3-codex',
    });
    const log = `${init}\nActionRequiredError: Named models unavailable. Free plans can only use Auto.\n`;
    const { html } = await reportOf(['-'], [log]);
    expect(html).toContain('<span class="badge incomplete">incomplete</span>');
    expect(html).toContain(
      '<strong>Why it stopped:</strong> ActionRequiredError: Named models unavailable. Free plans can only use Auto.',
    );
  });

  test('lays a session without timestamps out in log order', async () => {
    const { html } = await reportOf([join(REPO_ROOT, 'corpus/official/docs-example-zh.ndjson')]);
    expect(html).toContain('in log order (the records carry no timestamps)');
    expect(count(html, /class="bar tool /g)).toBe(2);
    expect(html).not.toContain('<table class="index">');
  });
});

describe('the report of several logs', () => {
  test('has an index row per session, sortable by time, status, duration and tokens', async () => {
    const paths = await Promise.all(
      ['a', 'b', 'c'].map(async (name, index) => {
        const path = join(scratch, `${name}.ndjson`);
        const usage = index === 1 ? undefined : { inputTokens: 100 * (index + 1), outputTokens: 5 };
        await writeFile(
          path,
          sessionLog({
            sessionId: `s-${name}`,
            calls: sampleCalls(1_780_000_000_000 + index * 86_400_000),
            ...(usage ? { usage } : {}),
          }),
        );
        return path;
      }),
    );
    const { html } = await reportOf([scratch, ...paths.slice(0, 1)]);
    // The head, then the directory's three sessions: the file given again is in the directory, and read once.
    expect(count(html, /<tr>/g)).toBe(1 + 3);
    for (const column of ['Started (UTC)', 'Status', 'Duration', 'Tokens']) {
      expect(html).toMatch(
        new RegExp(`<th data-sort="(number|text)"[^>]*>${column.replace(/[()]/g, '\\$&')}</th>`),
      );
    }
    // Named by the first prompt, the id under it; newest first, so the directory's last session leads.
    expect(html).toContain('<a href="#session-3">do it</a><small title="');
    expect(html).toMatch(/s-a · <code>a\.ndjson(:\d+)?<\/code>/);
    const order = [...html.matchAll(/<a href="#session-(\d)">/g)].map((match) => match[1]);
    // c and b a day apart after a.
    expect(order).toEqual(['3', '2', '1']);
  });
});

describe('the size of the report is bounded whatever the log', () => {
  const limits: ReportLimits = {
    valueChars: 2_000,
    transcriptChars: 20_000,
    timelineBars: 50,
    sectionChars: 150_000,
    indexRows: 8,
  };
  /** The page's frame, style and script, with room for the notes: measured on an empty log. */
  let frame = 0;

  beforeAll(async () => {
    frame = (await reportOf(['-'], [''], limits)).html.length;
  });

  test('a large generated log and a huge tool output stay within the limits, cuts said with sizes', async () => {
    const huge = 'x'.repeat(3_000_000);
    const hugeSession = sessionLog({
      sessionId: 'huge',
      calls: [{ ...sampleCalls()[0], stdout: huge } as never],
    });
    const generated = [...generateCorpus({ seed: 3, targetBytes: 4_000_000 })].join('');
    const { html } = await reportOf(['-'], [hugeSession, generated], limits);
    const indexRowBound = 4_000; // a row's cells are cut at 200 characters each
    expect(html.length).toBeLessThanOrEqual(
      frame + limits.sectionChars + limits.indexRows * indexRowBound + 2_000,
    );
    expect(html.length).toBeLessThan(generated.length / 10);
    expect(html).toMatch(/output · first 2\.0 KB of 3\.0 MB/);
    expect(html).toMatch(/more not shown/);
    expect(html).toMatch(/sessions? listed without a section: the size limit of the page was reached/);
    expect(html).toMatch(/more sessions? not listed: the row limit of the index was reached/);
    expect(count(html, /<tr>/g)).toBe(1 + limits.indexRows);
  });
});

describe('HTML from untrusted text', () => {
  test('the report shows bidi controls of a log as escapes, wherever they are', async () => {
    const bidi = '\u202egnp.exe\u2066x\u200f';
    const log = sessionLog({
      sessionId: `run-${bidi}`,
      model: `model ${bidi}`,
      prompt: `prompt ${bidi}`,
      calls: sampleCalls().map((call) => ({
        ...call,
        command: `${call.command} ${bidi}`,
        stdout: `out ${bidi}`,
      })),
      isError: true,
      resultText: `failed ${bidi}`,
    });
    const { html } = await reportOf(['-'], [log]);
    expect(html).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(html).toContain('model \\u202egnp.exe\\u2066x\\u200f');
  });

  test('its Content Security Policy applies only the page’s own script and style, by their hashes, nothing inline, and allows no base or form', async () => {
    const { html } = await reportOf(['-'], [sessionLog({ sessionId: 'csp', calls: sampleCalls() })]);
    const policy = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/)?.[1] ?? '';
    const directives = new Map(
      policy.split(';').map((directive) => {
        const [name = '', ...values] = directive.trim().split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
    );
    const script = html.match(/<script>([\s\S]*)<\/script>/)?.[1] ?? '';
    expect(script.length).toBeGreaterThan(100);
    expect(directives.get('script-src')).toBe(
      `'sha256-${createHash('sha256').update(script).digest('base64')}'`,
    );
    expect(directives.get('default-src')).toBe("'none'");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(directives.get('form-action')).toBe("'none'");
    const style = html.match(/<style>([\s\S]*)<\/style>/)?.[1] ?? '';
    expect(style.length).toBeGreaterThan(100);
    expect(directives.get('style-src')).toBe(
      `'sha256-${createHash('sha256').update(style).digest('base64')}'`,
    );
    expect(policy).not.toMatch(/unsafe/);
    expect(html).not.toMatch(/\sstyle=/);
    expect(count(html, /<script/g)).toBe(1);
  });
});

describe('values no date or total can take', () => {
  test('a log whose times are past any date: the page is whole, and stderr names each value left out', async () => {
    const folder = join(scratch, 'bad-times');
    await mkdir(folder, { recursive: true });
    const times = ['1e300', '8640000000000001', '"9999999999999999"', '-5'];
    for (const [index, time] of times.entries()) {
      const id = `bad-${index}`;
      await writeFile(
        join(folder, `${index}.ndjson`),
        [
          `{"type":"system","subtype":"init","session_id":"${id}","model":"m","timestamp_ms":${time}}`,
          `{"type":"tool_call","subtype":"started","call_id":"c1","session_id":"${id}","timestamp_ms":${time},"tool_call":{"shellToolCall":{"args":{"command":"ls"}},"startedAtMs":${time}}}`,
          `{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"${id}","duration_ms":1e308,"usage":{"inputTokens":1e308,"outputTokens":2}}`,
          '',
        ].join('\n'),
      );
    }
    await writeFile(join(folder, 'z.ndjson'), sessionLog({ sessionId: 'good-one', calls: sampleCalls() }));
    const out = join(scratch, 'bad-times.html');
    const run = await runCli(['report', folder, '-o', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/RangeError|Invalid time value|\n\s+at /);
    const lines = run.stderr.trimEnd().split('\n');
    // Per log: the init's time, the call's two times, and the token count no sum can take.
    expect(lines).toHaveLength(4 * 4);
    expect(lines[0]).toBe(
      `cursor-stream: ${join(folder, '0.ndjson')}: line 1: timestamp_ms 1e+300 is after 2554-07-21, the latest time a record may name; left out`,
    );
    expect(lines).toContain(
      `cursor-stream: ${join(folder, '2.ndjson')}: line 2: tool_call.startedAtMs "9999999999999999" is after 2554-07-21, the latest time a record may name; left out`,
    );
    expect(lines).toContain(
      `cursor-stream: ${join(folder, '3.ndjson')}: line 3: usage.inputTokens 1e+308 is more tokens than can be counted exactly; left out`,
    );
    const html = await readFile(out, 'utf8');
    expect(html.endsWith('</html>\n')).toBe(true);
    expect(count(html, /<section class="session /g)).toBe(5);
    expect(html).toContain('good-one');
    expect(html).toContain('16 values left out (times or token counts out of range)');
  });
});

describe('cursor-stream report', () => {
  test('writes the page to -o and exits 0; a missing -o is a usage error; an unwritable path exits 2', async () => {
    const out = join(scratch, 'out.html');
    const run = await runCli(['report', 'corpus/official/docs-example-zh.ndjson', '-o', out]);
    expect([run.code, run.stdout, run.stderr]).toEqual([0, '', '']);
    const missing = await runCli(['report', 'corpus/official/docs-example-zh.ndjson']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^cursor-stream: required option '-o, --output <file>' not specified\n$/);
    const bad = await runCli([
      'report',
      'corpus/official/docs-example-zh.ndjson',
      '-o',
      join(scratch, 'no/such/dir.html'),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`cursor-stream: ${join(scratch, 'no/such/dir.html')}: no such file\n`);
  });
});
