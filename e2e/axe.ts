import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

/**
 * axe-core's script, put into a page once per document and run there as often as asked. The
 * `@axe-core/playwright` builder (used before) puts it in again for every run and finishes each run in a new blank
 * page of its own: 2.6 s a check on the accessibility sweep's screens against 0.6 s this way (50
 * checks of one sweep: 130 s against 30 s), the same rules. Its slowness also hid a bug: checked this
 * fast, the phone's "New message" dialog was caught while Home had swapped its lists for "Loading"
 * and dropped the focus (fixed with i18n's `withTexts`).
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The WCAG 2.2 AA rule set the issue asks for (axe-core's tags; 2.2 A adds no rule of its own). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** The impacts that fail a screen. */
const FAILING = new Set(['critical', 'serious']);

/** One violation found by axe, on one element. */
export interface AxeHit {
  rule: string;
  impact: string;
  target: string;
  /** The start of the element's HTML, to find it in the code. */
  html: string;
  summary: string;
}

/**
 * Runs axe-core in the page (put in once per document) with these rules or tags, over the elements
 * `include` selects or the whole document.
 */
export async function runAxe(
  page: Page,
  runOnly: { type: 'tag' | 'rule'; values: string[] },
  include?: string,
): Promise<import('axe-core').AxeResults> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    ({ runOnly, include }) =>
      (window as unknown as { axe: typeof import('axe-core') }).axe.run(
        include === undefined ? document : { include: [include] },
        { runOnly },
      ),
    { runOnly, include },
  );
}

/**
 * Runs axe-core over the page as it is now (open menus and dialogs included) and returns every
 * critical or serious violation, one per element.
 */
export async function seriousViolations(page: Page): Promise<AxeHit[]> {
  // Menus, popovers and dialogs fade in: checked halfway, their text would be half transparent.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => {
      const timing = a.effect?.getComputedTiming();
      return a.playState !== 'running' || timing?.endTime === Number.POSITIVE_INFINITY;
    }),
  );
  const results = await runAxe(page, { type: 'tag', values: WCAG_TAGS });
  const hits: AxeHit[] = [];
  for (const violation of results.violations) {
    for (const node of violation.nodes) {
      const impact = node.impact ?? violation.impact ?? 'unknown';
      if (!FAILING.has(impact)) continue;
      hits.push({
        rule: violation.id,
        impact,
        target: node.target.map(String).join(' >> '),
        html: node.html.replace(/\s+/g, ' ').slice(0, 160),
        // The first line of axe's explanation: what to fix ("Fix any of the following: ..." trimmed).
        summary: (node.failureSummary ?? violation.help).replace(/\s+/g, ' ').trim(),
      });
    }
  }
  return hits;
}

/** The hits as a readable list, one line each: rule, impact, target, summary. */
export function formatHits(label: string, hits: AxeHit[]): string {
  return [
    `${label}: ${hits.length} critical or serious axe violation(s)`,
    ...hits.map((h) => `  - [${h.impact}] ${h.rule} at ${h.target} (${h.html}): ${h.summary}`),
  ].join('\n');
}

/**
 * Fails the test (softly: the next screens are still checked) when axe finds a critical or serious
 * WCAG 2.2 AA violation on the page, naming each one.
 */
export async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  const hits = await seriousViolations(page);
  expect.soft(hits.length, formatHits(label, hits)).toBe(0);
}
