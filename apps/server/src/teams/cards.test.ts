import { describe, expect, it } from 'vitest';
import { teamsSafeLines } from './cards.ts';
import { TEAMS_TAB_ENTITY_ID, tabDeepLink } from './deepLinks.ts';

describe('teamsSafeLines', () => {
  it('keeps the first lines as plain text: names for mentions, text for links, no HTML or Markdown marks', () => {
    expect(
      teamsSafeLines(
        [
          '# Heading',
          '',
          `**Bold** and _italic_ for @[Malee](user:01234567-89ab) <script>alert(1)</script>`,
          '> quoted [link](https://example.org/a_(b)) ![map](https://example.org/m.png)',
          '1. first',
          '- [x] done',
          'hidden fifth line',
        ].join('\n'),
      ),
    ).toEqual(['Heading', 'Bold and italic for @Malee alert(1)', 'quoted link map', '1. first …']);
  });

  it('drops control characters and bidirectional overrides', () => {
    expect(teamsSafeLines('pay\u202Efdp.exe\tnow\u0007')).toEqual(['pay fdp.exe now']);
  });

  it('cuts long text at MAX_CHARS with an ellipsis, by characters (Thai stays whole)', () => {
    const lines = teamsSafeLines('ก'.repeat(1000));
    expect(lines).toHaveLength(1);
    expect([...lines[0]!]).toHaveLength(400);
    expect(lines[0]!.endsWith('…')).toBe(true);
  });
});

describe('tabDeepLink', () => {
  it("opens a BTalk path in the personal tab, or the web app when the Teams app's id is not configured", () => {
    const link = tabDeepLink(
      { teamsAppId: '3f2d6a4e-7c1b-4e8a-9d5f-0a1b2c3d4e5f', publicUrl: 'https://btalk.example.org' },
      '/topics/t1#post-3',
    );
    const url = new URL(link);
    expect(url.origin + url.pathname).toBe(
      `https://teams.microsoft.com/l/entity/3f2d6a4e-7c1b-4e8a-9d5f-0a1b2c3d4e5f/${TEAMS_TAB_ENTITY_ID}`,
    );
    expect(JSON.parse(url.searchParams.get('context')!)).toEqual({ subEntityId: '/topics/t1#post-3' });
    expect(
      tabDeepLink({ teamsAppId: null, publicUrl: 'https://btalk.example.org' }, '/calltree/event/e1'),
    ).toBe('https://btalk.example.org/calltree/event/e1');
  });
});
