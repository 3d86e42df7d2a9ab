/**
 * Taking the lines of the hottest records without building their value at all. Building a small record's value from
 * a template's captures costs about what `JSON.parse` costs (see `record-templates.ts`); what a dialect makes of a
 * `thinking` delta, though, is one event from one field (its `text`) and a session id that stays the same for
 * thousands of lines. So a line template here proves a line to be exactly a record of a learnt layout and captures
 * the field the dialect reads and its fixed fields (the session id, compared with the last line's rather than read
 * again); fields the dialect's events do not depend on (a timestamp) are checked and passed over.
 *
 * What a template accepts is what `record-templates.ts` describes (the learnt punctuation, keys and constants only,
 * any JSON string, whole numbers of at most 15 digits), so a line it takes is a record `JSON.parse` reads, of the
 * shape the dialect's schema describes: valid, strict or open, with no problem to report.
 */

import type { JsonObject } from '../dialect.ts';
import type { RecordShape } from './record-shape.ts';
import {
  capturedString,
  createLearntTemplates,
  fits,
  literal,
  ownString,
  PLAIN_CHARACTERS,
  type Repeat,
  STRING_CONTENT,
  shapeOf,
} from './record-templates.ts';

/** A hot record: its shape, the string field the dialect's events take from each line, the fields kept as learnt. */
export interface LineLayout {
  readonly shape: RecordShape;
  /** The string field read from each line (a delta's `text`). */
  readonly read: string;
  /**
   * String fields the events depend on besides the read one, whose value repeats for many lines (a session id): a
   * line's is compared with the last line's, and read only when it differs.
   */
  readonly fixed: readonly string[];
}

/** A line taken by a template; valid until the next line is taken. */
export interface TakenLine {
  /**
   * The line's record as far as its events depend on it: its constants and fixed fields as the line holds them, its
   * read field and any other field as in the record the layout was learnt from.
   */
  record: JsonObject;
  /** The value of the read field in this line, as `JSON.parse` gives it. */
  value: string;
}

/** What takes the lines of a dialect's hot records, learning their layouts from records parsed the usual way. */
export interface LineReader {
  /** The line's record and read field when `text` is a line of a learnt layout; `undefined` otherwise. */
  take(text: string): TakenLine | undefined;
  /** Learns the layout of `record`, parsed from `text` by `JSON.parse`, if it is one of the hot ones. Never throws. */
  learn(text: string, record: JsonObject): void;
}

/** A fixed field of a template: where its captures are, and its value in the last line taken. */
interface FixedField {
  readonly key: string;
  readonly group: number;
  plain: string;
  escaped: string;
}

interface LineTemplate {
  /** The text every line of the layout begins with, up to its first field that may change. */
  readonly prefix: string;
  readonly pattern: RegExp;
  /** The first capture group of the read field. */
  readonly readGroup: number;
  readonly fixed: readonly FixedField[];
  /** The record of the last line taken: a new one whenever a fixed field changes, so events may keep it. */
  record: JsonObject;
  readonly repeat: Repeat;
}

/** A JSON string's content, checked and not captured. */
const SKIPPED_STRING = `${PLAIN_CHARACTERS}(?:\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4})${PLAIN_CHARACTERS})*`;
const SKIPPED_NUMBER = '(?:0|[1-9][0-9]{0,14})';
/** What no capture of a string's content holds (a bare quote), so that a template's first line reads its fixed fields. */
const UNREAD = '"';

/**
 * The template of `record`'s layout: `undefined` unless every field is one the template can take (constants,
 * strings, whole numbers) and `text` is written as `JSON.stringify` writes the record.
 */
function templateOf(record: JsonObject, layout: LineLayout, text: string): LineTemplate | undefined {
  const shape = layout.shape.shape;
  // A field that decides another's requirement is kept as learnt, so that every line taken fits the shape.
  const tested = new Set(shape.requiredWhen.map((condition) => condition.field));
  let source = '';
  let prefix = '';
  // Whether everything so far is written as learnt: the prefix is that much of the layout.
  let literalSoFar = true;
  const addLiteral = (piece: string): void => {
    source += literal(piece);
    if (literalSoFar) prefix += piece;
  };
  let groups = 0;
  let readGroup = 0;
  const fixed: FixedField[] = [];
  addLiteral('{');
  const keys = Object.keys(record);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const field = Object.hasOwn(shape.fields, key) ? shape.fields[key] : undefined;
    if (field === undefined) return undefined;
    addLiteral(`${index > 0 ? ',' : ''}${JSON.stringify(key)}:`);
    const value = record[key];
    if (field.kind === 'const' || (field.kind === 'string' && tested.has(key))) {
      addLiteral(JSON.stringify(value));
    } else if (field.kind === 'string') {
      addLiteral('"');
      literalSoFar = false;
      const captured = key === layout.read || layout.fixed.includes(key);
      source += `${field.nonEmpty ? '(?!")' : ''}${captured ? STRING_CONTENT : SKIPPED_STRING}"`;
      if (!captured) continue;
      if (key === layout.read) readGroup = groups + 1;
      else fixed.push({ key, group: groups + 1, plain: UNREAD, escaped: UNREAD });
      groups += 2;
    } else if (field.kind === 'whole-number') {
      source += SKIPPED_NUMBER;
      literalSoFar = false;
    } else return undefined;
  }
  if (readGroup === 0) return undefined;
  addLiteral('}');
  const pattern = compiledPattern(`^${source}$`);
  if (!pattern.test(text)) return undefined;
  return { prefix, pattern, readGroup, fixed, record, repeat: { raw: '', value: '' } };
}

/** Patterns compiled, by source, at most this many. */
const MAX_COMPILED = 64;
/**
 * The patterns of the layouts learnt, shared by every stream: a layout holds no session id, so each log of a folder
 * of many small ones has the layouts the one before had, and compiling a pattern costs more than such a log's
 * deltas save.
 */
const compiled = new Map<string, RegExp>();

/** The pattern of `source`, compiled once. A pattern without flags keeps no state between matches. */
function compiledPattern(source: string): RegExp {
  let pattern = compiled.get(source);
  if (pattern === undefined) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    pattern = new RegExp(source);
    compiled.set(source, pattern);
  }
  return pattern;
}

/**
 * The record of `template` for a line whose match is `match`: the last line's, unless a fixed field changed (a new
 * session), and then a new record with the line's value of it.
 */
function recordOf(template: LineTemplate, match: RegExpExecArray): JsonObject {
  let record = template.record;
  for (const field of template.fixed) {
    const plain = match[field.group] as string;
    const escaped = match[field.group + 1] as string;
    if (plain === field.plain && escaped === field.escaped) continue;
    field.plain = ownString(plain);
    field.escaped = ownString(escaped);
    const value = escaped === '' ? field.plain : (JSON.parse(`"${plain}${escaped}"`) as string);
    record = { ...record, [field.key]: value };
  }
  template.record = record;
  return record;
}

/**
 * A line reader of `layouts`, learning as a record reader does (see `createRecordReader`): at most
 * `MAX_TEMPLATES` templates, the one read most recently tried first, learning paused for longer and longer
 * after records of a hot shape it could not learn.
 */
export function createLineReader(layouts: readonly LineLayout[]): LineReader {
  const shapes = layouts.map((layout) => layout.shape);
  const templates = createLearntTemplates<LineTemplate>();
  const { list } = templates;
  const taken: TakenLine = { record: {}, value: '' };

  function take(text: string): TakenLine | undefined {
    for (let index = 0; index < list.length; index++) {
      const template = list[index] as LineTemplate;
      // Most lines of another layout differ in their first characters: a comparison, not a pattern run.
      if (!text.startsWith(template.prefix)) continue;
      const match = template.pattern.exec(text);
      if (match === null) continue;
      templates.bringForward(index);
      const group = template.readGroup;
      taken.record = recordOf(template, match);
      taken.value = capturedString(match[group] as string, match[group + 1] as string, template.repeat);
      return taken;
    }
    return undefined;
  }

  function learn(text: string, record: JsonObject): void {
    if (templates.resting()) return;
    const shape = shapeOf(shapes, record);
    if (shape === undefined || !fits(record, shape.shape) || take(text) !== undefined) return;
    const layout = layouts[shapes.indexOf(shape)] as LineLayout;
    let template: LineTemplate | undefined;
    try {
      template = templateOf(record, layout, text);
    } catch {
      // A pattern the runtime refuses (too large, say) is no template.
    }
    templates.keep(template);
  }

  return { take, learn };
}
