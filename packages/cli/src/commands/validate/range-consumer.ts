/** `validate` on a worker: findings collected as on one thread, each tagged with when one thread finds it. */

import { loadSchemaValidators, type SourceLocation } from '@cursor-stream/core/normalize';
import {
  createValidateCollector,
  type Finding,
  type FindingSink,
  type KeptFindings,
  MAX_FINDINGS_LISTED,
  validatorKindsFor,
} from '@cursor-stream/inspect/validate';
import type {
  ConsumerFactory,
  CreateConsumerFactory,
  RangeConsumer,
  ReadingStep,
} from '@cursor-stream/node/ranges';
// The digest alone, without the rest of the package (child processes), which a worker need not load.
import { createNodeTextDigest } from '@cursor-stream/node/text-digest';

/** What `validate`'s findings on a worker depend on. */
export interface ValidateRangeSetup {
  readonly strict: boolean;
  /** The dialect the user forced; `undefined` for `auto`. */
  readonly dialect: string | undefined;
}

/** A finding and the reading step it was found at. */
export interface StepFinding {
  readonly step: ReadingStep;
  readonly finding: Finding;
}

/** A range's findings: the first ones listed in the order found, the rest counted. */
export interface StepFindings {
  readonly listed: StepFinding[];
  readonly omitted: number;
}

/** A range's result: its problems and warnings. */
export interface ValidateRangeResult {
  readonly problems: StepFindings;
  readonly warnings: StepFindings;
}

function createStepList(step: () => ReadingStep): FindingSink & { readonly kept: StepFindings } {
  const listed: StepFinding[] = [];
  let omitted = 0;
  return {
    add(finding: Finding) {
      if (listed.length < MAX_FINDINGS_LISTED) listed.push({ step: step(), finding });
      else omitted += 1;
    },
    get kept() {
      return { listed, omitted };
    },
  };
}

/**
 * The first findings one thread keeps depend on the order it finds them in: a chunk's schema findings (while it is
 * read) before its event findings (when its events are delivered). Each finding carries its step, so that the main
 * thread can put the ranges' findings back in that order before it keeps the first ones.
 */
function validateConsumer(setup: ValidateRangeSetup): RangeConsumer {
  let at: ReadingStep = 0;
  const problems = createStepList(() => at);
  const warnings = createStepList(() => at);
  const collector = createValidateCollector(
    { strict: setup.strict, dialect: setup.dialect, textDigest: createNodeTextDigest },
    problems,
    warnings,
  );
  return {
    onRecord(record, dialect, step) {
      at = step;
      collector.onRecord(record, dialect);
    },
    // As on one thread (`validate-log.ts`): the lines taken without a value are proven to pass the schema.
    // With a dialect forced, the collector checks which dialect read each record: every record, as on one thread.
    onRecordFor: setup.dialect === undefined ? 'unproven-records' : 'every-record',
    // As on one thread: the schema check reads every string.
    lazyStrings: false,
    onDialect() {},
    onEvents(events, step) {
      at = step;
      collector.onEvents(events);
    },
    end(where: SourceLocation, step) {
      at = step;
      collector.end(where);
    },
    take: () => ({ items: [], count: 0, bytes: 0 }),
    result: (): ValidateRangeResult => ({ problems: problems.kept, warnings: warnings.kept }),
  };
}

/** `validate`'s consumers, for a range worker, once its thread has loaded the schema validators. */
export const createConsumerFactory: CreateConsumerFactory<ValidateRangeSetup> = async (
  setup,
): Promise<ConsumerFactory> => {
  await loadSchemaValidators(validatorKindsFor(setup));
  // Validation writes nothing as it goes, so a resumed run has no items to leave out.
  return () => validateConsumer(setup);
};

/**
 * The findings of consecutive ranges as one thread keeps them: in the order found, the first ones listed. Joining
 * the ranges one at a time onto what was kept so far gives the same: a range's findings keep their order, and only
 * the first ones of each can be among the first ones of all.
 */
export function joinFindings(parts: readonly StepFindings[]): StepFindings {
  const all = parts.flatMap((part) => part.listed);
  // Stable: within a step, ranges keep their order and each range its own.
  all.sort((a, b) => a.step - b.step);
  const total = all.length + parts.reduce((sum, part) => sum + part.omitted, 0);
  const listed = all.slice(0, MAX_FINDINGS_LISTED);
  return { listed, omitted: total - listed.length };
}

/** The findings kept, without the steps they were found at. */
export function keptFindings(found: StepFindings): KeptFindings {
  return { listed: found.listed.map((entry) => entry.finding), omitted: found.omitted };
}
