/**
 * The live page: a prompt box, the list of runs, and the open run: its status, a Stop button while it runs, its
 * transcript (Markdown rendered, tool calls as cards that open on failure), and its usage and cost once it ended. It
 * is fed by the relay's SSE stream. The browser's `EventSource` resumes after a dropped connection from the last id it
 * saw; when the relay itself was gone (a restart), the page reconnects with `?after=` that id, so it neither misses
 * nor repeats an event, and says so while it does.
 */

import type { CanonicalEvent } from '@cursor-stream/core/normalize';
import { escapeControlsKeepingLines, foldToOneLine, truncate } from '@cursor-stream/core/text';
import { renderMarkdown } from '@cursor-stream/inspect/markdown';
import { reasoningPreview } from '@cursor-stream/inspect/transcript';
import {
  applyEvent,
  createTranscript,
  type Transcript,
  type TranscriptItem,
  usageFacts,
} from './transcript.ts';

interface RunRecord {
  runId: string;
  chatId: string | null;
  status: string;
  title: string;
  createdAt: string;
}

const RECONNECT_MS = 1000;
/** How long the note that a stream resumed stays up. */
const RESUMED_NOTE_MS = 4000;

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`#${id} is missing`);
  return found as T;
}

const form = element<HTMLFormElement>('prompt-form');
const promptBox = element<HTMLTextAreaElement>('prompt');
const continueBox = element<HTMLInputElement>('continue');
const runList = element<HTMLUListElement>('runs');
const transcriptView = element<HTMLElement>('transcript');
const connection = element<HTMLElement>('connection');
const runHead = element<HTMLElement>('run-head');
const runTitle = element<HTMLElement>('run-title');
const runStatus = element<HTMLElement>('run-status');
const stopButton = element<HTMLButtonElement>('stop');
const runUsage = element<HTMLElement>('run-usage');
const banner = element<HTMLElement>('resume-banner');
const empty = element<HTMLElement>('empty');

interface OpenRun {
  runId: string;
  source: EventSource | undefined;
  lastId: string | undefined;
  timer: number | undefined;
  /** The stream was lost and is being resumed. */
  resuming: boolean;
}

let current: OpenRun | undefined;
let transcript: Transcript = createTranscript();
let nodes: HTMLElement[] = [];
/** Items changed since the last frame: Markdown is rendered once a frame, however many deltas came. */
const dirty = new Set<number>();
let framePending = false;
let bannerTimer: number | undefined;

function child(parent: HTMLElement, tag: string, className: string, text?: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  parent.append(node);
  return node;
}

function renderTool(item: Extract<TranscriptItem, { kind: 'tool' }>, node: HTMLElement): void {
  const details = node as HTMLDetailsElement;
  details.dataset.state = item.state;
  // A failed call opens, so that why it failed is in sight; a person's own opening or closing is kept otherwise.
  if (item.state === 'failed' && details.dataset.opened !== 'yes') {
    details.open = true;
    details.dataset.opened = 'yes';
  }
  const summary = document.createElement('summary');
  child(summary, 'span', 'mark', item.state === 'running' ? '…' : item.state === 'done' ? '✓' : '✗');
  child(summary, 'span', 'tool-label', item.label);
  child(summary, 'span', 'tool-time', item.durationMs === undefined ? item.state : `${item.durationMs} ms`);
  const body = document.createElement('div');
  body.className = 'tool-body';
  if (item.details !== '') child(body, 'div', 'tool-args', item.details);
  if (item.outcome !== '') child(body, 'div', 'tool-outcome', item.outcome);
  if (item.errorText !== undefined)
    child(body, 'pre', 'tool-error', escapeControlsKeepingLines(item.errorText));
  if (body.childElementCount === 0)
    child(body, 'div', 'tool-none', item.state === 'running' ? 'running…' : 'no details');
  details.replaceChildren(summary, body);
}

/**
 * Every text a log holds is shown with its control and bidi characters escaped (line breaks kept), as `report` shows
 * it: a page, like a terminal, would otherwise show a file name or a command in another order than it is stored.
 */
function renderItem(item: TranscriptItem, node: HTMLElement): void {
  node.className = `item ${item.kind}`;
  if (item.kind === 'tool') renderTool(item, node);
  else if (item.kind === 'reasoning') {
    const summary = document.createElement('summary');
    summary.textContent = `Thinking: ${reasoningPreview(item.text)}`;
    const full = document.createElement('div');
    full.className = 'reasoning-text';
    full.textContent = escapeControlsKeepingLines(item.text);
    node.replaceChildren(summary, full);
  } else if (item.kind === 'ending') {
    node.dataset.state = item.state;
    node.textContent = escapeControlsKeepingLines(item.text);
  } else if (item.kind === 'prompt') {
    node.textContent = escapeControlsKeepingLines(item.text);
  } else {
    // Raw HTML is off in the renderer: the markup is markdown-it's own, the log's text escaped inside it.
    node.innerHTML = renderMarkdown(escapeControlsKeepingLines(item.text));
  }
}

function flush(): void {
  framePending = false;
  for (const index of dirty) {
    const item = transcript.items[index];
    const node = nodes[index];
    if (item !== undefined && node !== undefined) renderItem(item, node);
  }
  dirty.clear();
}

function show(event: CanonicalEvent): void {
  for (const index of applyEvent(transcript, event)) {
    const item = transcript.items[index];
    if (item === undefined) continue;
    if (nodes[index] === undefined) {
      const tag = item.kind === 'tool' || item.kind === 'reasoning' ? 'details' : 'div';
      const node = document.createElement(tag);
      node.className = `item ${item.kind}`;
      nodes[index] = node;
      transcriptView.append(node);
      empty.hidden = true;
    }
    dirty.add(index);
    if (item.kind === 'ending') showEnding();
  }
  if (!framePending) {
    framePending = true;
    window.requestAnimationFrame(flush);
  }
}

function showEnding(): void {
  const facts = usageFacts(transcript);
  if (facts === undefined) {
    runUsage.hidden = true;
    return;
  }
  const tokens = document.createElement('span');
  tokens.className = 'tokens';
  tokens.textContent = facts.tokens;
  const cost = document.createElement('span');
  cost.className = 'cost';
  cost.dataset.priced = facts.priced ? 'yes' : 'no';
  cost.textContent = facts.cost;
  runUsage.replaceChildren(tokens, cost);
  runUsage.hidden = false;
}

function setConnection(state: string): void {
  connection.textContent = state;
  connection.dataset.state = state;
}

function setBanner(state: 'reconnecting' | 'resumed' | 'none', text = ''): void {
  if (bannerTimer !== undefined) window.clearTimeout(bannerTimer);
  bannerTimer = undefined;
  banner.dataset.state = state;
  banner.textContent = text;
  banner.hidden = state === 'none';
  if (state === 'resumed') bannerTimer = window.setTimeout(() => setBanner('none'), RESUMED_NOTE_MS);
}

function setStatus(status: string): void {
  runStatus.textContent = status;
  runStatus.dataset.status = status;
  const running = status === 'running';
  stopButton.hidden = !running;
  if (!running) {
    stopButton.disabled = false;
    stopButton.textContent = 'Stop';
  }
}

async function refreshRuns(): Promise<void> {
  const response = await fetch('/api/runs');
  if (!response.ok) return;
  const { runs } = (await response.json()) as { runs: RunRecord[] };
  runList.replaceChildren(
    ...runs.map((run) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = `#run=${run.runId}`;
      child(link, 'span', 'dot');
      child(link, 'span', 'run-name', truncate(foldToOneLine(run.title), 80) || run.runId);
      child(link, 'span', 'run-state', run.status);
      item.dataset.status = run.status;
      if (run.runId === current?.runId) item.setAttribute('aria-current', 'true');
      item.append(link);
      return item;
    }),
  );
}

async function refreshRun(run: OpenRun): Promise<void> {
  const response = await fetch(`/api/runs/${run.runId}`);
  if (!response.ok || current !== run) return;
  const record = (await response.json()) as RunRecord;
  runTitle.textContent = truncate(foldToOneLine(record.title), 160) || record.runId;
  setStatus(record.status);
}

/** The run's event stream after the last event the page shows. */
function eventsUrl(run: OpenRun): string {
  const query = run.lastId === undefined ? '' : `?after=${encodeURIComponent(run.lastId)}`;
  return `/api/runs/${run.runId}/events${query}`;
}

function connect(): void {
  if (current === undefined) return;
  const run = current;
  const source = new EventSource(eventsUrl(run));
  run.source = source;
  source.onopen = () => {
    setConnection('live');
    if (run.resuming) {
      run.resuming = false;
      setBanner(
        'resumed',
        `Reconnected: resumed after event ${run.lastId ?? 'none'}, nothing missed or repeated.`,
      );
    }
  };
  source.onmessage = (message) => {
    run.lastId = message.lastEventId;
    show(JSON.parse(message.data) as CanonicalEvent);
  };
  source.addEventListener('end', () => {
    source.close();
    ended(run);
  });
  source.onerror = () => {
    setConnection('reconnecting');
    run.resuming = true;
    setBanner(
      'reconnecting',
      `Connection lost. Reconnecting; the run resumes after event ${run.lastId ?? 'none'}, the last one shown.`,
    );
    // EventSource retries a dropped stream by itself; it gives up when the relay answered with an error or was
    // gone, and then the page starts again after the last id it has, unless the run is over.
    if (source.readyState === EventSource.CLOSED) void resumeOrEnd(run);
  };
}

/** The run's stream is over: nothing comes after what the page shows. */
function ended(run: OpenRun): void {
  if (current !== run) return;
  setConnection('ended');
  if (run.resuming) {
    run.resuming = false;
    setBanner('none');
  }
  void refreshRun(run);
  void refreshRuns();
}

/**
 * After a stream closed for good: a stream cut between a finished run's last event and its end (a restart, a proxy,
 * a lost link) is answered `204` from then on, which `EventSource` takes as fatal; asked once, the relay says so, and
 * the page stops there instead of asking again every second.
 */
async function resumeOrEnd(run: OpenRun): Promise<void> {
  const probe = new AbortController();
  let over = false;
  try {
    // Only the status is read: the answer to a run still going is its stream, given up at once.
    over = (await fetch(eventsUrl(run), { signal: probe.signal })).status === 204;
  } catch {
    // The relay is gone: try again later.
  } finally {
    probe.abort();
  }
  if (current !== run) return;
  if (over) ended(run);
  else run.timer = window.setTimeout(connect, RECONNECT_MS);
}

function open(runId: string): void {
  if (current?.runId === runId) return;
  current?.source?.close();
  if (current?.timer !== undefined) window.clearTimeout(current.timer);
  const run: OpenRun = { runId, source: undefined, lastId: undefined, timer: undefined, resuming: false };
  current = run;
  transcript = createTranscript();
  nodes = [];
  dirty.clear();
  transcriptView.replaceChildren();
  runUsage.hidden = true;
  runHead.hidden = false;
  empty.hidden = false;
  setBanner('none');
  runTitle.textContent = runId;
  setStatus('running');
  setConnection('connecting');
  void refreshRun(run);
  void refreshRuns();
  connect();
}

async function chatIdOf(runId: string): Promise<string | null> {
  const response = await fetch(`/api/runs/${runId}`);
  if (!response.ok) return null;
  return ((await response.json()) as RunRecord).chatId;
}

stopButton.addEventListener('click', () => {
  const run = current;
  if (run === undefined) return;
  stopButton.disabled = true;
  stopButton.textContent = 'Stopping…';
  void (async () => {
    const response = await fetch(`/api/runs/${run.runId}/cancel`, { method: 'POST' });
    // 409: it ended meanwhile. Either way the stream's end says how it ended.
    if (!response.ok && response.status !== 409) {
      stopButton.disabled = false;
      stopButton.textContent = 'Stop';
    }
    await refreshRun(run);
  })();
});

form.addEventListener('submit', (submit) => {
  submit.preventDefault();
  void (async () => {
    const prompt = promptBox.value;
    if (prompt.trim() === '') return;
    const chatId = continueBox.checked && current !== undefined ? await chatIdOf(current.runId) : null;
    const response = await fetch('/api/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chatId === null ? { prompt } : { prompt, chatId }),
    });
    if (!response.ok) {
      setConnection(`refused: ${response.status}`);
      return;
    }
    const { runId } = (await response.json()) as { runId: string };
    promptBox.value = '';
    window.location.hash = `run=${runId}`;
    void refreshRuns();
  })();
});

// Ctrl+Enter or Cmd+Enter runs the prompt, as in a chat.
promptBox.addEventListener('keydown', (key) => {
  if (key.key === 'Enter' && (key.ctrlKey || key.metaKey)) form.requestSubmit();
});

function openFromHash(): void {
  const runId = /^#run=([0-9a-z-]+)$/.exec(window.location.hash)?.[1];
  if (runId !== undefined) open(runId);
}

window.addEventListener('hashchange', openFromHash);
openFromHash();
void refreshRuns();
