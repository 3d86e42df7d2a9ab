/**
 * A horizontal bar chart of MB/s per row of a `pnpm bench --json` report, with the reference loop marked, as a
 * standalone SVG (no dependency).
 */

import { REFERENCE_LOOP_NAME } from './approaches/plain-loops.ts';
import { APPROACHES } from './approaches/registry.ts';
import type { BenchReport } from './report.ts';

const WIDTH = 860;
const LABEL_WIDTH = 230;
const VALUE_WIDTH = 90;
const BAR_HEIGHT = 22;
const GAP = 8;
const TOP = 80;
const BOTTOM = 56;
const COLORS = { ours: '#2f6fdf', baseline: '#9aa3ad', reference: '#e07b00', overhead: '#d0d4d9' } as const;

const escapeXml = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

function colorOf(name: string): string {
  if (name === REFERENCE_LOOP_NAME) return COLORS.reference;
  return COLORS[APPROACHES.find((approach) => approach.name === name)?.group ?? 'baseline'];
}

/** A round axis maximum at or above `value`, in at most 8 steps of 1, 2 or 5 times a power of ten. */
function niceMax(value: number): { max: number; step: number } {
  const power = 10 ** (Math.floor(Math.log10(Math.max(value, 1))) - 1);
  const step = [1, 2, 5, 10, 20, 50].map((m) => m * power).find((s) => value / s <= 8) ?? 100 * power;
  return { max: Math.ceil(value / step) * step, step };
}

/** The chart of a report's rows (the `read-only` row, which parses nothing, is left out). */
export function renderChart(report: Pick<BenchReport, 'rows' | 'machine' | 'runs' | 'corpus'>): string {
  const rows = report.rows.filter((row) => row.name !== 'read-only' && Number.isFinite(row.mbPerSec));
  const sorted = [...rows].sort((a, b) => b.mbPerSec - a.mbPerSec);
  const { max, step } = niceMax(Math.max(...sorted.map((row) => row.mbPerSec)));
  const plotWidth = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const x = (value: number): number => LABEL_WIDTH + (value / max) * plotWidth;
  const height = TOP + sorted.length * (BAR_HEIGHT + GAP) + BOTTOM;
  const plotBottom = TOP + sorted.length * (BAR_HEIGHT + GAP);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="13" role="img" aria-labelledby="chart-title">`,
    '<title id="chart-title">Throughput in MB/s per approach, the reference loop marked</title>',
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="16" y="26" font-size="16" font-weight="600">Throughput, MB/s (median of ${report.runs} fresh-process runs; higher is better)</text>`,
    `<text x="16" y="46" fill="#555">${escapeXml(`${(report.corpus.bytes / 1e6).toFixed(0)} MB generated corpus; ${report.machine.cpu}, ${report.machine.cores} cores, Node ${report.machine.node}`)}</text>`,
  ];
  for (let tick = 0; tick <= max; tick += step) {
    parts.push(
      `<line x1="${x(tick)}" y1="${TOP - 4}" x2="${x(tick)}" y2="${plotBottom}" stroke="#eceef1"/>`,
      `<text x="${x(tick)}" y="${plotBottom + 16}" text-anchor="middle" fill="#555">${tick}</text>`,
    );
  }
  sorted.forEach((row, index) => {
    const y = TOP + index * (BAR_HEIGHT + GAP);
    const isReference = row.name === REFERENCE_LOOP_NAME;
    parts.push(
      `<text x="${LABEL_WIDTH - 8}" y="${y + BAR_HEIGHT / 2 + 4}" text-anchor="end"${isReference ? ' font-weight="600"' : ''}>${escapeXml(row.name)}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y}" width="${Math.max(1, x(row.mbPerSec) - LABEL_WIDTH).toFixed(1)}" height="${BAR_HEIGHT}" fill="${colorOf(row.name)}"><title>${escapeXml(row.label)}</title></rect>`,
      `<text x="${(x(row.mbPerSec) + 6).toFixed(1)}" y="${y + BAR_HEIGHT / 2 + 4}">${row.mbPerSec.toFixed(1)} (${row.ratio.toFixed(2)}x)</text>`,
    );
  });
  const reference = rows.find((row) => row.name === REFERENCE_LOOP_NAME);
  if (reference !== undefined) {
    const rx = x(reference.mbPerSec).toFixed(1);
    parts.push(
      `<line x1="${rx}" y1="${TOP - 8}" x2="${rx}" y2="${plotBottom}" stroke="${COLORS.reference}" stroke-width="2" stroke-dasharray="5 4"/>`,
      `<text x="${rx}" y="${TOP - 12}" text-anchor="middle" fill="${COLORS.reference}" font-weight="600">reference loop</text>`,
    );
  }
  const legendY = height - 14;
  const legend: [string, string][] = [
    [COLORS.ours, 'cursor-stream'],
    [COLORS.reference, 'reference loop (ratio 1.00x)'],
    [COLORS.baseline, 'baselines'],
  ];
  legend.forEach(([color, text], index) => {
    const lx = 16 + index * 230;
    parts.push(
      `<rect x="${lx}" y="${legendY - 10}" width="12" height="12" fill="${color}"/>`,
      `<text x="${lx + 18}" y="${legendY}">${escapeXml(text)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
