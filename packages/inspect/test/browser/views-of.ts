/**
 * A recording's views as a page would make them from its text: the transcript and the report page. Runs alike in
 * Node and, bundled for the browser, in a page, so that the two can be compared.
 */

import { createNormalizer, createRecordTimeIndex } from '@cursor-stream/core/normalize';
import { isSessionContent } from '@cursor-stream/core/sessions';
import { createReport } from '@cursor-stream/inspect/report';
import { createPalette } from '@cursor-stream/inspect/terminal';
import { createTranscript } from '@cursor-stream/inspect/transcript';

/** The views of a recording. */
export interface Views {
  transcript: string;
  report: string;
}

/** The transcript (plain and colored) and the report page of the log `text`, a session from each first content. */
export function viewsOf(name: string, text: string): Views {
  const times = createRecordTimeIndex();
  const normalizer = createNormalizer({ onRecord: (record) => times.observe(record.line, record.value) });
  const events = [...normalizer.feed(text), ...normalizer.end()];
  const transcript = createTranscript(createPalette(true), { verbose: true });
  const report = createReport({ inputs: [name] });
  const parts = [report.head];
  let open = false;
  let outside = 0;
  for (const event of events) {
    if (!open && !isSessionContent(event)) {
      outside += 1;
      continue;
    }
    if (!open) report.startSession(name);
    open = true;
    report.push(event, event.loc === undefined ? undefined : times.at(event.loc.line));
    if (event.type === 'finish') {
      open = false;
      parts.push(report.endSession()?.html ?? '');
    }
  }
  const invalidLines = events.filter((event) => event.type === 'invalid-line').length;
  parts.push(
    report.end({ files: 1, invalidLines, valuesLeftOut: 0, eventsOutsideSessions: outside, unreadable: 0 }),
  );
  return {
    transcript: events.map((event) => transcript.push(event)).join('') + transcript.end(),
    report: parts.join(''),
  };
}
