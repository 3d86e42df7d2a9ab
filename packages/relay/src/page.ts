/**
 * The live page: one HTML document, its style sheet and its script, all shipped in the package (no network at
 * install or run) and served from the relay's own origin, so that the page's policy allows nothing inline.
 */

import { PAGE_SCRIPT } from './generated/page-script.ts';

/** The page's script (bundled from `page/`). */
export { PAGE_SCRIPT };

/** The page's style sheet, served as `/app.css`. */
export const PAGE_STYLE = `
:root {
  color-scheme: light dark;
  --bg: #f6f7f9; --panel: #ffffff; --ink: #1d2330; --muted: #5f6b7a; --line: #e2e6ec; --accent: #3759d7;
  --accent-ink: #ffffff; --ok: #1b7f3b; --ok-bg: #e7f5ec; --bad: #b3261e; --bad-bg: #fdecea; --run: #8a5a00;
  --run-bg: #fff4dc; --code-bg: #f0f2f5; --shadow: 0 1px 2px rgba(20, 30, 50, .06), 0 2px 8px rgba(20, 30, 50, .04);
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #12151b; --panel: #1a1e26; --ink: #e6e9ef; --muted: #9aa4b2; --line: #2c323d; --accent: #7b96ff;
    --accent-ink: #0e1220; --ok: #62c98a; --ok-bg: #16291e; --bad: #ff8a80; --bad-bg: #2e1a1a; --run: #f2c15b;
    --run-bg: #2c2614; --code-bg: #232833; --shadow: none;
  }
}
* { box-sizing: border-box; }
html, body { height: 100%; }
body { margin: 0; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
  background: var(--bg); display: flex; flex-direction: column; }
.bar { display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: .6rem 1.25rem;
  background: var(--panel); border-bottom: 1px solid var(--line); }
.brand { font-weight: 650; letter-spacing: .01em; }
.pill { font-size: 12px; padding: .15rem .6rem; border-radius: 999px; background: var(--code-bg); color: var(--muted); }
.pill[data-state=live] { background: var(--ok-bg); color: var(--ok); }
.pill[data-state=reconnecting], .pill[data-state=connecting] { background: var(--run-bg); color: var(--run); }
.layout { flex: 1; min-height: 0; display: grid; grid-template-columns: minmax(16rem, 22rem) 1fr; }
.side { border-right: 1px solid var(--line); padding: 1rem; overflow: auto; background: var(--panel);
  display: flex; flex-direction: column; gap: 1rem; }
.composer { display: grid; gap: .5rem; }
.label, .side h2 { font-size: 12px; font-weight: 600; text-transform: uppercase; letter-spacing: .06em;
  color: var(--muted); margin: 0; }
textarea { width: 100%; min-height: 5.5rem; resize: vertical; font: inherit; color: inherit; background: var(--bg);
  border: 1px solid var(--line); border-radius: 8px; padding: .55rem .7rem; }
textarea:focus-visible, button:focus-visible, a:focus-visible, summary:focus-visible {
  outline: 2px solid var(--accent); outline-offset: 2px; }
.row { display: flex; align-items: center; justify-content: space-between; gap: .75rem; flex-wrap: wrap; }
.check { font-size: 13px; color: var(--muted); display: flex; align-items: center; gap: .35rem; }
button { font: inherit; font-weight: 600; border-radius: 8px; padding: .45rem 1rem; cursor: pointer;
  border: 1px solid transparent; }
button:disabled { opacity: .6; cursor: default; }
.primary { background: var(--accent); color: var(--accent-ink); }
.stop { background: var(--bad-bg); color: var(--bad); border-color: var(--bad); }
.runs { list-style: none; padding: 0; margin: 0; display: grid; gap: .15rem; }
.runs a { display: grid; grid-template-columns: auto 1fr auto; align-items: center; gap: .5rem; padding: .4rem .5rem;
  border-radius: 6px; color: inherit; text-decoration: none; }
.runs a:hover, .runs li[aria-current] a { background: var(--code-bg); }
.run-name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.run-state { font-size: 12px; color: var(--muted); }
.dot { width: .55rem; height: .55rem; border-radius: 50%; background: var(--muted); }
.runs li[data-status=running] .dot { background: var(--run); }
.runs li[data-status=succeeded] .dot { background: var(--ok); }
.runs li[data-status=failed] .dot, .runs li[data-status=interrupted] .dot, .runs li[data-status=cancelled] .dot {
  background: var(--bad); }
.run { min-width: 0; overflow: auto; padding: 1.25rem clamp(1rem, 3vw, 2.5rem) 3rem; }
.run-head { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: .8rem 1rem;
  box-shadow: var(--shadow); margin-bottom: 1rem; display: grid; gap: .4rem; }
.title-row { display: flex; align-items: center; gap: .75rem; flex-wrap: wrap; }
.run-head h1 { font-size: 1.05rem; margin: 0; flex: 1 1 14rem; min-width: 0; overflow-wrap: anywhere; }
.status { font-size: 12px; font-weight: 600; padding: .15rem .6rem; border-radius: 999px; background: var(--code-bg);
  color: var(--muted); }
.status[data-status=running] { background: var(--run-bg); color: var(--run); }
.status[data-status=succeeded] { background: var(--ok-bg); color: var(--ok); }
.status[data-status=failed], .status[data-status=cancelled], .status[data-status=interrupted] {
  background: var(--bad-bg); color: var(--bad); }
.usage { display: flex; flex-wrap: wrap; gap: .3rem 1.25rem; font-size: 13px; color: var(--muted); }
.cost { font-weight: 600; color: var(--ink); }
.cost[data-priced=no] { font-weight: 400; font-style: italic; color: var(--muted); }
.banner { border-radius: 8px; padding: .55rem .8rem; margin-bottom: 1rem; font-size: 14px; }
.banner[data-state=reconnecting] { background: var(--run-bg); color: var(--run); border: 1px solid var(--run); }
.banner[data-state=resumed] { background: var(--ok-bg); color: var(--ok); border: 1px solid var(--ok); }
.empty { color: var(--muted); padding: 2rem 0; text-align: center; }
.transcript { display: flex; flex-direction: column; gap: .75rem; max-width: 56rem; }
.item { min-width: 0; overflow-wrap: anywhere; }
.prompt { align-self: flex-end; max-width: min(44rem, 92%); background: var(--accent); color: var(--accent-ink);
  padding: .55rem .85rem; border-radius: 12px 12px 2px 12px; white-space: pre-wrap; }
.text { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: .2rem 1rem; }
.text p, .text ul, .text ol, .text pre, .text blockquote, .text table { margin: .6rem 0; }
.text h1, .text h2, .text h3, .text h4 { margin: .9rem 0 .4rem; line-height: 1.3; }
.text h1 { font-size: 1.3rem; } .text h2 { font-size: 1.15rem; } .text h3 { font-size: 1.05rem; }
.text code { font: 13px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code-bg);
  padding: .05rem .3rem; border-radius: 4px; }
.text pre { background: var(--code-bg); padding: .7rem .9rem; border-radius: 8px; overflow: auto; }
.text pre code { background: none; padding: 0; }
.text blockquote { border-left: 3px solid var(--line); margin-left: 0; padding-left: .8rem; color: var(--muted); }
.text table { border-collapse: collapse; display: block; overflow: auto; }
.text th, .text td { border: 1px solid var(--line); padding: .3rem .6rem; }
.text a { color: var(--accent); }
.reasoning { color: var(--muted); font-size: 14px; }
.reasoning summary { cursor: pointer; font-style: italic; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.reasoning-text { white-space: pre-wrap; padding: .4rem 0 0 1rem; border-left: 2px solid var(--line); margin-top: .3rem; }
.tool { background: var(--panel); border: 1px solid var(--line); border-left: 4px solid var(--run); border-radius: 8px; }
.tool[data-state=done] { border-left-color: var(--ok); }
.tool[data-state=failed] { border-left-color: var(--bad); background: var(--bad-bg); }
.tool summary { display: grid; grid-template-columns: auto 1fr auto; gap: .6rem; align-items: baseline;
  padding: .45rem .8rem; cursor: pointer; font: 13px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.tool-label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.tool-time { color: var(--muted); font-size: 12px; }
.mark { font-weight: 700; color: var(--run); }
.tool[data-state=done] .mark { color: var(--ok); }
.tool[data-state=failed] .mark { color: var(--bad); }
.tool-body { padding: 0 .8rem .6rem 2rem; display: grid; gap: .3rem; font: 12.5px/1.5 ui-monospace, SFMono-Regular,
  Menlo, Consolas, monospace; color: var(--muted); }
.tool-error { margin: 0; white-space: pre-wrap; color: var(--bad); font: inherit; }
.ending { font-weight: 600; padding: .55rem .9rem; border-radius: 8px; background: var(--code-bg); }
.ending[data-state=succeeded] { background: var(--ok-bg); color: var(--ok); }
.ending[data-state=failed], .ending[data-state=incomplete] { background: var(--bad-bg); color: var(--bad); }
@media (max-width: 760px) {
  /* On a phone the document scrolls as one, the runs above the open run. */
  html, body { height: auto; }
  .layout { display: block; }
  .side { border-right: 0; border-bottom: 1px solid var(--line); }
  .runs { max-height: 9.5rem; overflow: auto; }
  .run { overflow: visible; padding: 1rem .75rem 2rem; }
  .prompt { max-width: 100%; }
  .bar { padding: .5rem .75rem; }
}
`;

/** The page's icon, served as `/icon.svg`: a browser asks for one, and the page gives it rather than a 404. */
export const PAGE_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="4" fill="#3759d7"/><path d="M4 5h8M4 8h6M4 11h4" stroke="#fff" stroke-width="1.6" stroke-linecap="round"/></svg>`;

/** The page's HTML; its style sheet is `/app.css` and its script `/app.js`. */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cursor-stream</title>
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/app.css">
</head>
<body>
<header class="bar">
  <span class="brand">cursor-stream</span>
  <span id="connection" class="pill" data-state="idle" role="status">idle</span>
</header>
<div class="layout">
  <aside class="side">
    <form id="prompt-form" class="composer">
      <label class="label" for="prompt">Prompt</label>
      <textarea id="prompt" name="prompt" placeholder="Ask the agent… (Ctrl+Enter runs it)" required></textarea>
      <div class="row">
        <label class="check"><input id="continue" type="checkbox" checked> continue the open chat</label>
        <button id="send" class="primary" type="submit">Run</button>
      </div>
    </form>
    <h2>Runs</h2>
    <ul id="runs" class="runs"></ul>
  </aside>
  <main class="run">
    <section id="run-head" class="run-head" hidden>
      <div class="title-row">
        <h1 id="run-title"></h1>
        <span id="run-status" class="status"></span>
        <button id="stop" class="stop" type="button" hidden>Stop</button>
      </div>
      <div id="run-usage" class="usage" hidden></div>
    </section>
    <div id="resume-banner" class="banner" role="status" data-state="none" hidden></div>
    <div id="empty" class="empty">Write a prompt and press Run: the run's transcript shows here as it streams.</div>
    <div id="transcript" class="transcript" aria-live="polite"></div>
  </main>
</div>
<script src="/app.js"></script>
</body>
</html>
`;
