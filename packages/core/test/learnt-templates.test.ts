/**
 * How a record reader rations its learning: a layout that could not be learnt, or templates learnt that never read a
 * line (a stream that lays out each record anew), make learning rest for longer and longer, so that such a stream
 * costs about what parsing it does; templates that read lines are kept, and learning goes on.
 */
import { describe, expect, it } from 'vitest';
import { createLearntTemplates, MAX_TEMPLATES } from '../src/record-readers/record-templates.ts';

/** Records passed over before learning may go on. */
function restLength(templates: ReturnType<typeof createLearntTemplates<string>>): number {
  let rested = 0;
  while (templates.resting()) rested++;
  return rested;
}

describe('learnt templates', () => {
  it('keep every template that reads lines, up to the limit, without resting', () => {
    const templates = createLearntTemplates<string>();
    for (let index = 0; index < MAX_TEMPLATES + 3; index++) {
      templates.keep(`layout-${index}`);
      templates.bringForward(0);
      expect(restLength(templates)).toBe(0);
    }
    expect(templates.list).toHaveLength(MAX_TEMPLATES);
    // The one learnt last first, the oldest given up.
    expect(templates.list[0]).toBe(`layout-${MAX_TEMPLATES + 2}`);
    expect(templates.list).not.toContain('layout-0');
  });

  it('give up templates that read no line, and rest twice as long each time they pile up', () => {
    const templates = createLearntTemplates<string>();
    templates.keep('used');
    templates.bringForward(0);
    const rests: number[] = [];
    for (let index = 0; index < 8; index++) {
      templates.keep(`once-${index}`);
      rests.push(restLength(templates));
      expect(templates.list.filter((template) => template.startsWith('once-')).length).toBeLessThanOrEqual(2);
    }
    // Two unused are let be; from the third on, each learns in vain and rests twice as long as the last.
    expect(rests).toEqual([0, 0, 64, 128, 256, 512, 1024, 2048]);
    expect(templates.list).toContain('used');
    expect(templates.list[0]).toBe('once-7');
  });

  it('count a line read by a template anywhere in the list, moving it first', () => {
    const templates = createLearntTemplates<string>();
    templates.keep('a');
    templates.keep('b');
    // `a` reads a line from the second place: it is used, and only `b` has read none.
    templates.bringForward(1);
    expect(templates.list).toEqual(['a', 'b']);
    templates.keep('c');
    expect(restLength(templates)).toBe(0);
    templates.keep('d');
    expect(restLength(templates)).toBe(64);
    // The oldest unused, `b`, went.
    expect(templates.list).toEqual(['d', 'c', 'a']);
  });

  it('rest twice as long after each layout that could not be learnt, and less again once one is', () => {
    const templates = createLearntTemplates<string>();
    templates.keep(undefined);
    expect(restLength(templates)).toBe(64);
    templates.keep(undefined);
    expect(restLength(templates)).toBe(128);
    templates.keep('learnt');
    templates.keep(undefined);
    expect(restLength(templates)).toBe(64);
  });
});
