/**
 * The live page: a prompt box, the list of runs, and the open run's transcript, fed by the relay's SSE stream. The
 * browser's `EventSource` resumes after a dropped connection from the last id it saw; when the relay itself was
 * gone (a restart), the page reconnects with `?after=` that id, so it neither misses nor repeats an event.
 */

import type { CanonicalEvent } from '@cursor-stream/core/normalize';
import { foldToOneLine, truncate } from '@cursor-stream/core/text';
import { reasoningPreview } from '@cursor-stream/inspect/transcript';
import {
  applyEvent,
  createTranscript,
  type Transcript,
  type TranscriptItem,
  toolLine,
} from './transcript.ts';

interface RunRecord {
  runId: string;
  chatId: string | null;
  status: string;
  title: string;
  createdAt: string;
}

const RECONNECT_MS = 1000;

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

let current:
  | { runId: string; source: EventSource | undefined; lastId: string | undefined; timer: number | undefined }
  | undefined;
let transcript: Transcript = createTranscript();
let nodes: HTMLElement[] = [];

function renderItem(item: TranscriptItem, node: HTMLElement): void {
  node.className = `item ${item.kind}`;
  if (item.kind === 'tool') {
    node.dataset.state = item.state;
    node.textContent = toolLine(item);
  } else if (item.kind === 'reasoning') {
    node.textContent = `thinking: ${reasoningPreview(item.text)}`;
    node.title = item.text;
  } else if (item.kind === 'ending') {
    node.dataset.state = item.state;
    node.textContent = item.text;
  } else if (item.kind === 'prompt') {
    node.textContent = `> ${item.text}`;
  } else {
    node.textContent = item.text;
  }
}

function show(event: CanonicalEvent): void {
  for (const index of applyEvent(transcript, event)) {
    const item = transcript.items[index];
    if (item === undefined) continue;
    let node = nodes[index];
    if (node === undefined) {
      node = document.createElement('div');
      nodes[index] = node;
      transcriptView.append(node);
    }
    renderItem(item, node);
  }
}

function setConnection(state: string): void {
  connection.textContent = state;
  connection.dataset.state = state;
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
      link.textContent = `${run.status}: ${truncate(foldToOneLine(run.title), 60)}`;
      item.dataset.status = run.status;
      item.append(link);
      return item;
    }),
  );
}

function connect(): void {
  if (current === undefined) return;
  const run = current;
  const query = run.lastId === undefined ? '' : `?after=${encodeURIComponent(run.lastId)}`;
  const source = new EventSource(`/api/runs/${run.runId}/events${query}`);
  run.source = source;
  source.onopen = () => setConnection('live');
  source.onmessage = (message) => {
    run.lastId = message.lastEventId;
    show(JSON.parse(message.data) as CanonicalEvent);
  };
  source.addEventListener('end', () => {
    source.close();
    setConnection('ended');
    void refreshRuns();
  });
  source.onerror = () => {
    // EventSource retries a dropped stream by itself; it gives up when the relay answered with an error or was
    // gone, and then the page starts again after the last id it has.
    if (source.readyState !== EventSource.CLOSED) {
      setConnection('reconnecting');
      return;
    }
    setConnection('reconnecting');
    run.timer = window.setTimeout(connect, RECONNECT_MS);
  };
}

function open(runId: string): void {
  if (current?.runId === runId) return;
  current?.source?.close();
  if (current?.timer !== undefined) window.clearTimeout(current.timer);
  current = { runId, source: undefined, lastId: undefined, timer: undefined };
  transcript = createTranscript();
  nodes = [];
  transcriptView.replaceChildren();
  connect();
}

async function chatIdOf(runId: string): Promise<string | null> {
  const response = await fetch(`/api/runs/${runId}`);
  if (!response.ok) return null;
  return ((await response.json()) as RunRecord).chatId;
}

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

function openFromHash(): void {
  const runId = /^#run=([0-9a-z-]+)$/.exec(window.location.hash)?.[1];
  if (runId !== undefined) open(runId);
}

window.addEventListener('hashchange', openFromHash);
openFromHash();
void refreshRuns();
