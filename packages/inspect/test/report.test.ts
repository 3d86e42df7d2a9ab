import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CanonicalEvent,
  createNormalizer,
  createRecordTimeIndex,
  type RecordTimes,
} from '@cursor-stream/core/normalize';
import { escapeControlsKeepingLines } from '@cursor-stream/core/text';
import { ansiToHtml, createReport, escapeHtml, type ReportReading } from '@cursor-stream/inspect/report';
import { fc, test as propTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { utf8Length } from '../src/report/shown-value.ts';
import { packLanes } from '../src/report/timeline.ts';

const CORPUS = join(import.meta.dirname, '../../../corpus');

/** A recording's events, each with the times of its record, as a reader of logs hands them on. */
function timedEvents(path: string): { event: CanonicalEvent; times: RecordTimes | undefined }[] {
  const times = createRecordTimeIndex();
  const normalizer = createNormalizer({ onRecord: (record) => times.observe(record.line, record.value) });
  const events = [...normalizer.feed(readFileSync(path)), ...normalizer.end()];
  return events.map((event) => ({
    event,
    times: event.loc === undefined ? undefined : times.at(event.loc.line),
  }));
}

const READING: ReportReading = {
  files: 1,
  invalidLines: 0,
  valuesLeftOut: 0,
  eventsOutsideSessions: 0,
  unreadable: 0,
};

/** The page of one recording, read as one session per finish. */
function pageOf(path: string, reading: ReportReading = READING): { html: string; sessions: number } {
  const report = createReport({ inputs: [path] });
  const parts = [report.head];
  let sessions = 0;
  let open = false;
  for (const { event, times } of timedEvents(path)) {
    if (!open) report.startSession('recording.ndjson');
    open = true;
    report.push(event, times);
    if (event.type !== 'finish') continue;
    open = false;
    const ended = report.endSession();
    if (ended !== undefined) sessions += 1;
    parts.push(ended?.html ?? '');
  }
  parts.push(report.end(reading));
  return { html: parts.join(''), sessions };
}

describe('the report page of events', () => {
  test('a recording gives one section with its facts, timeline and transcript, and the footer its reading', () => {
    const { html, sessions } = pageOf(join(CORPUS, 'official/docs-example-zh.ndjson'), {
      ...READING,
      files: 2,
      invalidLines: 3,
      unreadable: 1,
    });
    expect(sessions).toBe(1);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.match(/<section class="session /g)).toHaveLength(1);
    expect(html).toContain('<h3>Timeline</h3>');
    expect(html).toContain('<details class="transcript" open><summary>Transcript</summary>');
    expect(html).toContain(
      '<footer>Made by cursor-stream from 2 logs · 3 invalid lines · 1 input could not be read.</footer>',
    );
    expect(html.endsWith('</html>\n')).toBe(true);
  });

  test('its Content Security Policy names the SHA-256 of the one script the page holds', () => {
    const { html } = pageOf(join(CORPUS, 'official/docs-example-zh.ndjson'));
    const policy = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/)?.[1] ?? '';
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
    expect(scripts).toHaveLength(1);
    const digest = createHash('sha256')
      .update(scripts[0] ?? '')
      .digest('base64');
    expect(policy).toContain(`script-src 'sha256-${digest}'`);
  });

  test('past its budget for sections, a session is listed in the index without a section', () => {
    const report = createReport({ inputs: ['-'], limits: { sectionChars: 1 } });
    const events = timedEvents(join(CORPUS, 'official/docs-example-zh.ndjson'));
    for (const round of [1, 2]) {
      report.startSession(`run-${round}.ndjson`);
      for (const { event, times } of events) report.push(event, times);
      const ended = report.endSession();
      expect(ended?.html).toBe('');
      expect(ended?.facts.file).toBe(`run-${round}.ndjson`);
    }
    const end = report.end(READING);
    expect(end).toContain('2 sessions listed without a section: the size limit of the page was reached.');
    expect(end.match(/<tr>/g)).toHaveLength(1 + 2);
  });

  test('a lone session past the budget for sections still has its row, the one place the page names it', () => {
    const report = createReport({ inputs: ['-'], limits: { sectionChars: 1 } });
    report.startSession('run.ndjson');
    for (const { event, times } of timedEvents(join(CORPUS, 'official/docs-example-zh.ndjson')))
      report.push(event, times);
    expect(report.endSession()?.html).toBe('');
    const end = report.end(READING);
    expect(end).toContain('1 session listed without a section: the size limit of the page was reached.');
    expect(end.match(/<tr>/g)).toHaveLength(1 + 1);
    expect(end).toContain('c6b62c6f');
  });

  test('a session of more calls than its facts list counts them all, and those that failed past the list', () => {
    const report = createReport({ inputs: ['-'] });
    report.startSession('calls.ndjson');
    const calls = 1_500;
    for (let i = 0; i < calls; i += 1) {
      const base = { toolCallId: `call-${i}`, toolName: 'shell', providerToolName: 'shellToolCall' };
      report.push({ type: 'tool-call', ...base, input: {}, loc: { line: 2 * i + 1, offset: 0 } }, undefined);
      const failed = i % 3 === 0;
      report.push(
        {
          type: 'tool-result',
          ...base,
          status: failed ? 'failure' : 'success',
          isError: failed,
          output: null,
          loc: { line: 2 * i + 2, offset: 0 },
        },
        undefined,
      );
    }
    const ended = report.endSession();
    expect(ended?.facts.summary.toolCalls.length).toBeLessThan(calls);
    expect(ended?.facts.toolCallsOmitted).toBe(calls - (ended?.facts.summary.toolCalls.length ?? 0));
    expect(ended?.html).toContain('<dd>1,500 <span class="red">(500 failed)</span></dd>');
    expect(report.end(READING)).toContain('tool calls (500 failed)');
  });

  test('a session without content has no section and no row', () => {
    const report = createReport({ inputs: [] });
    report.startSession('empty.ndjson');
    expect(report.endSession()).toBeUndefined();
    expect(report.endSession()).toBeUndefined();
    expect(report.end(READING)).toContain('<strong>0</strong><span>sessions</span>');
  });
});

const ESC = String.fromCharCode(27);

/** What escaped text never holds: markup, control characters but line feeds and tabs, bidi controls. */
const UNSAFE_IN_PAGE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may reach the page.
  /[<>"'\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('HTML from untrusted text', () => {
  const sgr = fc.constantFrom(
    '\u001b[1m',
    '\u001b[2m',
    '\u001b[22m',
    '\u001b[31m',
    '\u001b[39m',
    '\u001b[9m',
    '\u001b[',
  );
  const styled = fc
    .array(fc.oneof(fc.string(), sgr, fc.constantFrom('<', '>', '&', '"', "'")), { maxLength: 20 })
    .map((parts) => parts.join(''));

  propTest.prop([styled])(
    'ansiToHtml makes only its own span tags, never nested, and keeps the text',
    (text) => {
      const html = ansiToHtml(text);
      const tags = [...html.matchAll(/<[^>]*>/g)].map(([tag]) => tag);
      for (const tag of tags) expect(tag).toMatch(/^(<span class="[a-z ]+">|<\/span>)$/);
      expect(
        tags.every((tag, index) => (index % 2 === 0 ? tag.startsWith('<span') : tag === '</span>')),
      ).toBe(true);
      const text_ = html
        .replace(/<[^>]*>/g, '')
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&quot;', '"')
        .replaceAll('&#39;', "'")
        .replaceAll('&amp;', '&');
      expect(text_).toBe(
        escapeControlsKeepingLines(text.replace(new RegExp(`${ESC}\\[(1|2|22|31|39)m`, 'g'), '')),
      );
    },
  );

  propTest.prop([fc.string({ unit: 'binary' })])(
    'escapeHtml leaves no markup character, no control character but line feeds and tabs, and no bidi control',
    (text) => {
      expect(escapeHtml(text)).not.toMatch(UNSAFE_IN_PAGE);
    },
  );
});

describe('sizes of shown values', () => {
  // Lone surrogates included: a tool's output may hold half a pair, which UTF-8 writes as U+FFFD.
  propTest.prop([
    fc.string({
      unit: fc.oneof(
        fc.constant('\ud800'),
        fc.constant('\udc00'),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      ),
    }),
  ])('utf8Length is the length of the text written as UTF-8', (text) => {
    expect(utf8Length(text)).toBe(Buffer.byteLength(text));
  });
});

describe('timeline lanes', () => {
  const interval = fc
    .tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 30 }))
    .map(([from, length]) => ({ from, to: from + length }));
  propTest.prop([fc.array(interval, { maxLength: 30 })])('bars on one lane never overlap', (items) => {
    const sorted = [...items].sort((a, b) => a.from - b.from);
    const lanes = packLanes(sorted);
    sorted.forEach((a, i) => {
      sorted.forEach((b, j) => {
        if (i < j && lanes[i] === lanes[j]) expect(a.to < b.from || b.to < a.from).toBe(true);
      });
    });
  });
});

describe('the assistant’s text and the prompt in the report', () => {
  test('text is Markdown with raw HTML as text, the first prompt names the session, a failed output is open', () => {
    const { html } = pageOf(join(import.meta.dirname, '../../relay/test/fixtures/markdown-run.ndjson'));
    const start = html.indexOf('<section class="session');
    const section = html.slice(start, html.indexOf('</section>', start));
    expect(section).toContain('<p class="prompt">Fix the failing test and tell me what changed</p>');
    expect(section).toContain('<h2>Fixed</h2>');
    expect(section).toContain('<li><strong>before</strong>: <code>i &lt; n - 1</code></li>');
    expect(section).toContain(
      '<pre><code class="language-ts">for (let i = 0; i &lt; n; i++) yield i;\n</code></pre>',
    );
    expect(section).toContain(
      'Raw HTML stays text: &lt;script&gt;document.title = &quot;pwned&quot;&lt;/script&gt;',
    );
    expect(section).not.toMatch(/<(?:script|img)\b/);
    expect(section).not.toContain('href="javascript');
    expect(section).toMatch(
      /<details class="value failed" open><summary>output[^<]*<\/summary><pre>[^<]*FAIL src\/range\.test\.ts/,
    );
    expect(section).not.toMatch(/<details class="value" open>/);
  });
});
