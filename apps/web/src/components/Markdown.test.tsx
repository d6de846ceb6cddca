import { render, screen } from '@testing-library/react';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { describe, expect, it } from 'vitest';
import { isPlainText, Markdown, prepareMentions } from './Markdown.tsx';

describe('Markdown', () => {
  it('renders GFM, and links open in a new tab with noopener', () => {
    render(<Markdown text={'**bold**\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[site](https://example.com)'} />);
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(screen.getByRole('table')).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'site' });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('drops raw HTML and script URLs', () => {
    const { container } = render(
      <Markdown
        text={
          '<img src=x onerror=alert(1)> <script>alert(2)</script>\n\n[x](javascript:alert(3)) [y](data:text/html,hi) ![z](javascript:alert(4))'
        }
      />,
    );
    expect(container.querySelector('img, script')).toBeNull();
    for (const a of Array.from(container.querySelectorAll('a'))) {
      expect(a.getAttribute('href') ?? '').not.toMatch(/^(javascript|data):/i);
    }
  });

  it('shows mention tokens as the person’s name', () => {
    expect(prepareMentions('hi @[Kanya R](user:abc-1)')).toBe('hi [@Kanya R](user:abc-1)');
    const { container } = render(<Markdown text="hi @[Kanya R](user:abc-1)" />);
    expect(screen.getByText('@Kanya R')).toHaveAttribute('data-mention', 'abc-1');
    expect(container.querySelector('a')).toBeNull();
  });

  it('draws plain text without the parser exactly as the parser would', () => {
    const plain = [
      'Update 1999: ทุกคนปลอดภัยดี ระบบไฟฟ้ากลับมาใช้งานได้ตามปกติแล้ว',
      'ok, see you at 9:30 (room 4) - thanks; "quoted" text?',
      'สวัสดีครับ',
    ];
    for (const text of plain) {
      expect(isPlainText(text), text).toBe(true);
      const parsed = render(
        <ReactMarkdown remarkPlugins={[remarkGfm]} skipHtml>
          {text}
        </ReactMarkdown>,
      ).container.innerHTML;
      const { container } = render(<Markdown text={text} />);
      expect(container.querySelector('.markdown')?.innerHTML).toBe(parsed);
    }
    for (const text of [
      '**bold**',
      'a_b_',
      '`code`',
      'see https://example.com',
      'www.example.com',
      'mail a@b.co',
      '- item',
      '+ item',
      '1. first',
      '2) second',
      '# heading',
      '> quote',
      '    code',
      'two\nlines',
      'a | b',
      'a &amp; b',
      '<b>x</b>',
      'escaped \\*',
      '~~gone~~',
      '[link](x)',
      '![img](x)',
      'hi @[Kanya](user:abc)',
      'trailing  ',
      '=== ',
    ]) {
      expect(isPlainText(text), text).toBe(false);
    }
  });
});
