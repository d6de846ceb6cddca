import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

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
  // Legacy mode runs axe in the page itself; the default finishes every run in a new blank page of
  // its own (the accessibility sweep: about 90 s a combination alone, 60 s this way). The page has no
  // frames of another origin, which only the default would check.
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze();
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
