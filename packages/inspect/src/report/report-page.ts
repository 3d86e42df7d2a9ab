/**
 * The report page around the session sections: the head with its inline style, the overview and the sortable index
 * (written last, shown first), and the inline script. Nothing is loaded from anywhere: the page's Content Security
 * Policy forbids every request, so even a link smuggled into a log could not fetch.
 */

import { displayPath, formatCount, formatDuration, plural, truncate } from '@cursor-stream/core/text';
import { escapeHtml } from './html.ts';
import { INDEX_CELL_CHARS } from './report-limits.ts';
import { formatUtc, type SessionRow } from './session-section.ts';

/** What the index keeps of a session: short values only, so that a row has a bounded size. */
export interface IndexRow {
  number: number;
  /** Whether the session has a section in the page (false once the page's budget for sections is spent). */
  shown: boolean;
  file: string;
  sessionId: string | null;
  model: string | null;
  status: string;
  startedMs: number | null;
  durationMs: number | null;
  tokens: number | null;
  toolCalls: number;
  failedCalls: number;
  failure: string | null;
  /** The session's first prompt, on one line. */
  prompt: string | null;
}

/** The index row of a built session. */
export function indexRow(row: SessionRow, shown: boolean): IndexRow {
  const { facts } = row;
  const cell = (text: string | null): string | null =>
    text === null ? null : truncate(text, INDEX_CELL_CHARS);
  return {
    number: row.number,
    shown,
    file: cell(facts.line === null ? facts.file : `${facts.file}:${facts.line}`) ?? '',
    sessionId: cell(facts.summary.sessionId),
    model: cell(facts.summary.model),
    status: facts.summary.status,
    startedMs: facts.firstAtMs,
    durationMs: row.durationMs,
    tokens: row.tokens,
    toolCalls: row.toolCalls,
    failedCalls: row.failedCalls,
    failure: cell(row.failure),
    prompt: cell(row.prompt),
  };
}

const STYLE = `
:root{--bg:#f5f6f8;--card:#fff;--line:#e2e5ea;--text:#1f2329;--dim:#6b7280;--blue:#3b82f6;--green:#16a34a;
--red:#dc2626;--amber:#d97706;--violet:#8b5cf6;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
*{box-sizing:border-box}
body{margin:0;padding:24px 16px;background:var(--bg);color:var(--text);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;display:flex;flex-direction:column;gap:20px;max-width:1280px;margin-inline:auto}
body>header{order:0}body>.overview{order:1}body>.session{order:2}body>footer{order:3}
h1{font-size:20px;margin:0}h2{font-size:16px;margin:0;display:flex;flex-wrap:wrap;gap:10px;align-items:center}
h3{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--dim);margin:18px 0 8px}
code{font-family:var(--mono);font-size:12px}.dim{color:var(--dim)}.red{color:var(--red)}
.page-sub{color:var(--dim);margin:4px 0 0}
.overview h3{margin-top:0}
.overview,.session{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:18px 20px;box-shadow:0 1px 2px rgba(16,24,40,.04)}
.session.error{border-left:4px solid var(--red)}.session.incomplete{border-left:4px solid var(--amber)}.session.success{border-left:4px solid var(--green)}
.stats{display:flex;flex-wrap:wrap;gap:28px;margin:0 0 8px}.stats div{display:flex;flex-direction:column}
.stats strong{font-size:22px;font-weight:600}.stats span{color:var(--dim);font-size:12px}
.badge{display:inline-block;padding:1px 9px;border-radius:999px;font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.03em}
.badge.success{background:#dcfce7;color:#166534}.badge.error{background:#fee2e2;color:#991b1b}.badge.incomplete{background:#fef3c7;color:#92400e}
.model{font-weight:600}.sid{color:var(--dim);font-weight:400;overflow-wrap:anywhere}
.prompt{margin:10px 0 0;font-size:15px;font-weight:500;overflow-wrap:anywhere}
.facts{display:flex;flex-wrap:wrap;gap:6px 28px;margin:12px 0 0}.facts div{min-width:0}
.facts dt{color:var(--dim);font-size:11px;text-transform:uppercase;letter-spacing:.04em}.facts dd{margin:0;overflow-wrap:anywhere}
.facts small{color:var(--dim)}
.failure{margin:14px 0 0;padding:10px 14px;background:#fef2f2;border:1px solid #fecaca;border-radius:8px;color:#7f1d1d;white-space:pre-wrap;overflow-wrap:anywhere}
.timeline{border:1px solid var(--line);border-radius:8px;padding:8px 10px;background:#fcfcfd;overflow-x:auto}
.lane,.axis{display:flex;align-items:center}.lane-label{flex:0 0 84px;font-size:11px;color:var(--dim);text-transform:uppercase;letter-spacing:.04em}
.track{position:relative;flex:1;height:24px;border-top:1px dashed #eef0f3}
.ticks{position:relative;flex:1;height:18px;font-size:11px;color:var(--dim)}.ticks span{position:absolute;transform:translateX(-50%);white-space:nowrap}
.ticks span:first-child{transform:none}.ticks span:last-child{transform:translateX(-100%)}
.axis.untimed{font-size:11px;color:var(--dim);padding-left:84px}
.bar{position:absolute;top:4px;height:16px;min-width:4px;border-radius:4px;overflow:hidden;font-size:11px;line-height:16px;color:#fff;padding:0 5px;white-space:nowrap;text-overflow:ellipsis;cursor:default}
.bar span{pointer-events:none}
.bar-label{position:absolute;top:4px;font-size:11px;line-height:16px;white-space:nowrap;color:#334155}.bar-label.failed{color:var(--red);font-weight:600}
.bar-label.pending{color:var(--amber)}
.bar.tool{background:var(--blue)}.bar.reasoning{background:var(--violet);opacity:.75}.bar.model{background:var(--green);opacity:.8}
.bar.failed{background:repeating-linear-gradient(135deg,var(--red) 0 6px,#b91c1c 6px 12px);font-weight:600}
.bar.pending{background:#fff;color:var(--amber);border:1px dashed var(--amber)}.bar.orphan{background:#9ca3af}
.note{color:var(--dim);font-size:12px;font-style:italic}
details.transcript{margin-top:18px}details.transcript>summary{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:var(--dim);cursor:pointer;font-weight:600}
.transcript-body{margin-top:8px;padding:12px 14px;background:#fbfbfc;border:1px solid var(--line);border-radius:8px;font:12.5px/1.55 var(--mono);white-space:pre-wrap;overflow-wrap:anywhere}
.transcript-body .b{font-weight:700}.transcript-body .dim{color:var(--dim)}.transcript-body .red{color:var(--red)}.transcript-body .green{color:var(--green)}
.transcript-body .yellow{color:var(--amber)}.transcript-body .blue{color:#1d4ed8}.transcript-body .cyan{color:#0891b2}.transcript-body .magenta{color:#a21caf}
details.value{margin:2px 0 6px 24px;white-space:normal}details.value>summary{color:var(--dim);font:11.5px var(--mono);cursor:pointer}
details.value.failed>summary{color:var(--red)}
details.value pre{margin:4px 0 0;padding:8px 10px;max-height:26em;overflow:auto;background:#f3f4f6;border-radius:6px;font:12px/1.45 var(--mono);white-space:pre-wrap;overflow-wrap:anywhere}
div.index{overflow-x:auto}table.index{width:100%;table-layout:fixed;border-collapse:collapse;font-size:13px;margin-top:8px}
table.index th:nth-child(1){width:12%}table.index th:nth-child(2){width:10%}table.index th:nth-child(3){width:30%}table.index th:nth-child(4){width:11%}
table.index th:nth-child(5),table.index th:nth-child(6),table.index th:nth-child(7){width:8%}
table.index td.sess a{font-weight:500;overflow-wrap:anywhere}table.index td.sess small{display:block;color:var(--dim);overflow-wrap:anywhere}
.search{display:flex;gap:10px;align-items:center;margin-top:14px}.search input{flex:1;max-width:420px;min-width:0;font:inherit;padding:7px 10px;border:1px solid var(--line);border-radius:8px;background:#fff}
.search input:focus{outline:2px solid #bfdbfe;border-color:var(--blue)}.search output{color:var(--dim);font-size:12px;white-space:nowrap}
tr[hidden]{display:none}
table.index th{text-align:left;font-size:11px;text-transform:uppercase;letter-spacing:.04em;color:var(--dim);border-bottom:1px solid var(--line);padding:6px 8px;white-space:nowrap}
table.index th[data-sort]{cursor:pointer;user-select:none}table.index th[data-sort]:hover{color:var(--text)}
table.index th[aria-sort=ascending]::after{content:" ▲"}table.index th[aria-sort=descending]::after{content:" ▼"}
table.index td{padding:6px 8px;border-bottom:1px solid #f0f1f4;vertical-align:top}table.index td.num{text-align:right;font-variant-numeric:tabular-nums}
table.index tr:hover td{background:#f8fafc}table.index td.why{color:#7f1d1d;overflow-wrap:anywhere}table.index td.sess code{word-break:break-all}
a{color:#2563eb;text-decoration:none}a:hover{text-decoration:underline}
footer{color:var(--dim);font-size:12px}
.transcript-body .md{font:14px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;white-space:normal;margin:4px 0 8px}
.md>:first-child{margin-top:0}.md>:last-child{margin-bottom:0}.md p,.md ul,.md ol,.md pre,.md table,.md blockquote{margin:0 0 8px}
.md h1,.md h2,.md h3,.md h4,.md h5,.md h6{font-size:15px;margin:12px 0 6px;text-transform:none;letter-spacing:0;color:var(--text)}.md h1{font-size:18px}.md h2{font-size:16px}
.md ul,.md ol{padding-left:22px}.md code{background:#eef0f3;border-radius:4px;padding:1px 4px}
.md pre{padding:8px 10px;background:#f3f4f6;border-radius:6px;overflow-x:auto;white-space:pre}.md pre code{background:none;padding:0}
.md blockquote{border-left:3px solid var(--line);padding-left:10px;color:var(--dim)}.md table{border-collapse:collapse;display:block;overflow-x:auto}
.md th,.md td{border:1px solid var(--line);padding:3px 8px}.md .align-right{text-align:right}.md .align-center{text-align:center}
@media (max-width:720px){
body{padding:12px 10px;gap:14px}.overview,.session{padding:14px 12px}.stats{gap:14px}.stats strong{font-size:18px}
.lane-label{flex-basis:52px}.axis.untimed{padding-left:52px}.facts{gap:6px 18px}
table.index,table.index tbody,table.index tr,table.index td{display:block;width:auto}table.index thead{display:none}
table.index tr{display:flex;flex-direction:column;border-bottom:1px solid var(--line);padding:8px 0}table.index td.sess{order:-1;font-size:15px}table.index td{border:0;padding:1px 0;text-align:left}
table.index td.num{text-align:left}table.index td[data-label]:not(.sess)::before{content:attr(data-label) ": ";color:var(--dim);font-size:12px}
table.index td:empty{display:none}details.value{margin-left:8px}
}
`;

const SCRIPT = `
for (const node of document.querySelectorAll('[data-left],[data-right],[data-width]')) {
  const { left, right, width } = node.dataset;
  if (left !== undefined) node.style.left = left;
  if (right !== undefined) node.style.right = right;
  if (width !== undefined) node.style.width = width;
}
for (const table of document.querySelectorAll('table.index')) {
  const headers = [...table.querySelectorAll('th')];
  for (const th of headers) {
    if (!th.dataset.sort) continue;
    th.addEventListener('click', () => {
      const column = headers.indexOf(th);
      const ascending = th.getAttribute('aria-sort') !== 'ascending';
      for (const other of headers) other.removeAttribute('aria-sort');
      th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      const key = (row) => row.children[column].dataset.value ?? '';
      const numeric = th.dataset.sort === 'number';
      const rows = [...table.tBodies[0].rows].sort((a, b) => {
        const x = key(a), y = key(b);
        if (x === '' || y === '') return x === y ? 0 : x === '' ? 1 : -1;
        const order = numeric ? Number(x) - Number(y) : x < y ? -1 : x > y ? 1 : 0;
        return ascending ? order : -order;
      });
      table.tBodies[0].append(...rows);
    });
  }
}
const search = document.getElementById('search');
const found = document.getElementById('found');
if (search && found) {
  const rows = [...document.querySelectorAll('table.index tbody tr')];
  search.addEventListener('input', () => {
    const words = search.value.toLowerCase().split(/\\s+/).filter((word) => word !== '');
    let shown = 0;
    for (const row of rows) {
      const text = row.textContent.toLowerCase();
      row.hidden = !words.every((word) => text.includes(word));
      if (!row.hidden) shown += 1;
    }
    found.textContent = words.length === 0 ? '' : shown + ' of ' + rows.length;
  });
}
`;

/**
 * The SHA-256 of {@link SCRIPT}'s UTF-8 bytes, in base64, as the Content Security Policy names it. Written out, as
 * the script is, because a view computes no digest of bytes in a browser synchronously; the report's tests hash the
 * script the page holds and compare, so that a change to one without the other fails them.
 */
const SCRIPT_SHA256 = 'VQdwI5YY6C9vERdFxZKA816s0WOks1A/e36rzcMCx2I=';

/** The SHA-256 of {@link STYLE}, as {@link SCRIPT_SHA256} is of the script, and checked by the same tests. */
const STYLE_SHA256 = '6Gj6vxG8hl2o3KBfUxozMUN2KImLDLPi68UBHMFbHRk=';

/**
 * The page's Content Security Policy: nothing is loaded from anywhere; the one script and the one style sheet that
 * apply are the page's own, each named by its hash, so that no script or style a log could smuggle in would apply,
 * even past the escaping; no `<base>` can move the links and no form can send anything. Nothing inline is allowed:
 * the script places the timeline's bars from data attributes.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${STYLE_SHA256}'`,
  `script-src 'sha256-${SCRIPT_SHA256}'`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The page's start, up to where session sections begin. */
export function pageStart(title: string, inputs: readonly string[]): string {
  const shownInputs = inputs
    .slice(0, 20)
    .map((input) => `<code>${escapeHtml(truncate(displayPath(input), INDEX_CELL_CHARS))}</code>`);
  const more = inputs.length > 20 ? ` and ${plural(inputs.length - 20, 'more')}` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(title)}</h1><p class="page-sub">${shownInputs.join(', ')}${more}</p></header>
`;
}

/** Counts over every session of the report, the unlisted ones included. */
export interface ReportTotals {
  sessions: number;
  byStatus: Record<string, number>;
  tokens: number;
  sessionsWithoutUsage: number;
  toolCalls: number;
  failedCalls: number;
  /** Sessions past the index's row limit. */
  unlisted: number;
  /** Sessions listed but without a section (the page's budget for sections was spent). */
  unshown: number;
}

function cell(text: string, value: string | number | null, className: string, label: string): string {
  const data = value === null ? '' : ` data-value="${escapeHtml(String(value))}"`;
  return `<td${className === '' ? '' : ` class="${className}"`} data-label="${label}"${data}>${text}</td>`;
}

/** The last part of a path: the index names the log, its full path is on hover. */
function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

function rowHtml(row: IndexRow): string {
  // A session is named by what was asked; its id and log are under it.
  const name = escapeHtml(row.prompt ?? row.sessionId ?? `session ${row.number}`);
  const link = row.shown ? `<a href="#session-${row.number}">${name}</a>` : name;
  const id = row.prompt === null || row.sessionId === null ? '' : `${escapeHtml(row.sessionId)} · `;
  return `<tr>${[
    cell(
      row.startedMs === null ? '<span class="dim">—</span>' : formatUtc(row.startedMs),
      row.startedMs,
      'when',
      'Started',
    ),
    cell(`<span class="badge ${row.status}">${row.status}</span>`, row.status, '', 'Status'),
    cell(
      `${link}<small title="${escapeHtml(row.file)}">${id}<code>${escapeHtml(baseName(row.file))}</code></small>`,
      row.prompt ?? row.sessionId,
      'sess',
      'Prompt',
    ),
    cell(escapeHtml(row.model ?? '—'), row.model, '', 'Model'),
    cell(row.durationMs === null ? '—' : formatDuration(row.durationMs), row.durationMs, 'num', 'Duration'),
    cell(
      row.tokens === null ? '<span class="dim">—</span>' : formatCount(row.tokens),
      row.tokens,
      'num',
      'Tokens',
    ),
    cell(
      `${formatCount(row.toolCalls)}${row.failedCalls === 0 ? '' : ` <span class="red">(${formatCount(row.failedCalls)} ✗)</span>`}`,
      row.toolCalls,
      'num',
      'Tool calls',
    ),
    row.failure === null ? '<td class="why"></td>' : cell(escapeHtml(row.failure), row.failure, 'why', 'Why'),
  ].join('')}</tr>`;
}

/** Newest first, sessions without a time last, each in log order among equals. */
function newestFirst(a: IndexRow, b: IndexRow): number {
  if (a.startedMs === b.startedMs) return a.number - b.number;
  if (a.startedMs === null) return 1;
  if (b.startedMs === null) return -1;
  return b.startedMs - a.startedMs;
}

const INDEX_HEAD = `<thead><tr><th data-sort="number" aria-sort="descending">Started (UTC)</th><th data-sort="text">Status</th><th>Prompt</th><th data-sort="text">Model</th><th data-sort="number">Duration</th><th data-sort="number">Tokens</th><th data-sort="number">Tool calls</th><th>Why it failed</th></tr></thead>`;

function statsHtml(totals: ReportTotals): string {
  const stat = (value: string, label: string): string =>
    `<div><strong>${value}</strong><span>${escapeHtml(label)}</span></div>`;
  const statuses = ['success', 'error', 'incomplete'].map((status) =>
    stat(formatCount(totals.byStatus[status] ?? 0), status),
  );
  const tokens = `tokens${totals.sessionsWithoutUsage === 0 ? '' : ` (${plural(totals.sessionsWithoutUsage, 'session')} without usage)`}`;
  return `<div class="stats">${[
    stat(formatCount(totals.sessions), 'sessions'),
    ...statuses,
    stat(formatCount(totals.tokens), tokens),
    stat(`${formatCount(totals.toolCalls)}`, `tool calls (${formatCount(totals.failedCalls)} failed)`),
  ].join('')}</div>`;
}

/** The overview and the index, written after the sections and shown above them. */
export function overviewHtml(rows: readonly IndexRow[], totals: ReportTotals): string {
  const notes: string[] = [];
  if (totals.unshown > 0) {
    notes.push(
      `${plural(totals.unshown, 'session')} listed without a section: the size limit of the page was reached.`,
    );
  }
  if (totals.unlisted > 0)
    notes.push(
      `${plural(totals.unlisted, 'more session')} not listed: the row limit of the index was reached.`,
    );
  const search =
    '<div class="search"><input id="search" type="search" placeholder="Search prompts, models, statuses, failures" aria-label="Search the sessions"><output id="found" for="search"></output></div>';
  // One session is its own section, unless the page had no room for it: then its row is all the page says of it.
  const table =
    rows.length > 1 || totals.unlisted > 0 || totals.unshown > 0
      ? `${search}<div class="index"><table class="index">${INDEX_HEAD}<tbody>${[...rows].sort(newestFirst).map(rowHtml).join('\n')}</tbody></table></div>`
      : '';
  const noteHtml = notes.map((note) => `<p class="note">${escapeHtml(note)}</p>`).join('');
  return `<section class="overview"><h3>Overview</h3>${statsHtml(totals)}${table}${noteHtml}</section>\n`;
}

/** The page's end: the footer and the script. */
export function pageEnd(footer: string): string {
  return `<footer>${escapeHtml(footer)}</footer>\n<script>${SCRIPT}</script>\n</body>\n</html>\n`;
}
