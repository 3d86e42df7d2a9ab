/**
 * What a run skipped for want of something this machine or clone lacks, said once at its end: each suite that needs
 * the shared material or Chromium names it in its title (`(needs …)`), and the run's reporter hands the skipped tests'
 * names here to gather them under one note per missing prerequisite.
 */
import { SHARED_FOLDER_NAMES, sharedFolder } from './corpus.ts';
import { CHROMIUM, CHROMIUM_NEEDS, hasChromium } from './installed-chromium.ts';

/** A prerequisite that is missing here: the text the titles of the suites that need it hold, and what to say. */
interface MissingPrerequisite {
  readonly needs: string;
  readonly missing: string;
  readonly remedy: string;
}

function missingPrerequisites(): MissingPrerequisite[] {
  const missing: MissingPrerequisite[] = SHARED_FOLDER_NAMES.map(sharedFolder)
    .filter((folder) => !folder.present)
    .map((folder) => ({
      needs: folder.needs,
      missing: `${folder.shown} is missing`,
      remedy: 'set CURSOR_STREAM_SHARED to its parent folder to run them',
    }));
  if (!hasChromium)
    missing.push({
      needs: CHROMIUM_NEEDS,
      missing: `${CHROMIUM} is not installed`,
      remedy: "install Debian's chromium package to run them",
    });
  return missing;
}

/**
 * One note per missing prerequisite that skipped something, each followed by the suites and tests it skipped, one a
 * line. `skipped` holds the full names of skipped suites and tests (`file > suite > test`); a name is cut after the
 * part that says what it needs, so that a skipped suite is named once rather than by each of its tests.
 */
export function skipNotes(skipped: readonly string[]): string[] {
  const lines: string[] = [];
  for (const { needs, missing, remedy } of missingPrerequisites()) {
    const named = new Set<string>();
    for (const name of skipped) {
      const parts = name.split(' > ');
      const at = parts.findIndex((part) => part.includes(needs));
      if (at !== -1) named.add(parts.slice(0, at + 1).join(' > '));
    }
    if (named.size === 0) continue;
    lines.push(
      `note: ${missing}, so these were skipped (${remedy}):`,
      ...[...named].map((name) => `  ${name}`),
    );
  }
  return lines;
}
