import { apiAs } from '../api.ts';
import { expect, test } from '../fixtures.ts';
import { signInAs } from '../session.ts';

// Each case carries a marker word, so the test also proves the post was rendered at all.
const CORPUS = [
  'xss-01 <script>window.__xss = 1; alert(1)</script>',
  'xss-02 <img src=x onerror="window.__xss = 2; alert(2)">',
  'xss-03 <svg onload="window.__xss = 3; alert(3)"><circle r="5"/></svg>',
  'xss-04 <iframe src="javascript:alert(4)"></iframe>',
  'xss-05 [click me](javascript:window.__xss=5;alert(5))',
  'xss-06 [data link](data:text/html;base64,PHNjcmlwdD5hbGVydCg2KTwvc2NyaXB0Pg==)',
  'xss-07 ![pic](javascript:alert(7))',
  'xss-08 <a href="javascript:alert(8)">html link</a>',
  'xss-09 [vb](vbscript:msgbox(9))',
  'xss-10 <object data="javascript:alert(10)"></object><embed src="javascript:alert(10)">',
  'xss-11 <details open ontoggle="window.__xss = 11; alert(11)">x</details>',
  'xss-12 [spaced](  javascript:alert(12))',
  'xss-13 [encoded](jav&#x61;script:alert(13))',
  'xss-14 <style>body{display:none}</style><link rel="stylesheet" href="https://evil.example/x.css">',
  'xss-15 <math><mtext><table><mglyph><style><img src=x onerror=alert(15)>',
  'xss-16 [ref][r16]\n\n[r16]: javascript:alert(16)',
  'xss-17 <form action="javascript:alert(17)"><button>go</button></form>',
  'xss-18 <body onload=alert(18)>',
  'xss-19 `<script>alert(19)</script>` in code',
  'xss-20 <a href="https://example.com" onclick="alert(20)">with handler</a>',
  'xss-21 ![x](x" onerror="alert(21))',
  'xss-22 <meta http-equiv="refresh" content="0;url=javascript:alert(22)">',
];

test('a Markdown XSS corpus renders as text: nothing runs and no active element is injected', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const base = baseURL ?? '';
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.setViewportSize({ width: 1280, height: 6000 });
  const me = await signInAs(page, base, 'Xavier Sanitised');
  const topic = await apiAs<{ id: string }>(base, me.token, 'POST', '/topics', {
    title: 'XSS corpus',
    description: CORPUS.join('\n\n'),
    visibility: 'members',
  });
  for (const [i, body] of CORPUS.entries()) {
    await apiAs(base, me.token, 'POST', `/topics/${topic.id}/posts`, { clientId: `xss-corpus-${i}`, body });
  }
  await page.goto(`/topics/${topic.id}`);
  await page.getByRole('button', { name: 'Show description' }).click();
  const feed = page.getByRole('feed');
  for (const [i] of CORPUS.entries()) {
    const marker = `xss-${String(i + 1).padStart(2, '0')}`;
    await expect(feed.getByRole('article').filter({ hasText: marker })).toHaveCount(1);
  }
  await expect(feed.getByRole('article')).toHaveCount(CORPUS.length);
  // Code keeps the text it shows; it does not run it.
  await expect(feed.locator('code', { hasText: '<script>alert(19)</script>' })).toBeVisible();

  // Everything the Markdown renderer made (posts and the description) is inside `.markdown`.
  const rendered = page.locator('.markdown');
  await expect(rendered).toHaveCount(CORPUS.length + 1);
  await expect(
    rendered.locator(
      'script, iframe, object, embed, svg, style, link, meta, form, math, details, img, input, button',
    ),
  ).toHaveCount(0);
  const unsafe = await page.evaluate(() => {
    const found: string[] = [];
    for (const el of Array.from(document.querySelectorAll('.markdown, .markdown *'))) {
      for (const attr of Array.from(el.attributes)) {
        if (/^on/i.test(attr.name)) found.push(`${el.tagName} ${attr.name}`);
        if (
          /^(href|src|action|data)$/i.test(attr.name) &&
          /^\s*(javascript|vbscript|data):/i.test(attr.value)
        )
          found.push(`${el.tagName} ${attr.name}=${attr.value}`);
      }
    }
    return found;
  });
  expect(unsafe).toEqual([]);
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  await expect(page.locator('body')).toBeVisible();
});
