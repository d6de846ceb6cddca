import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown, prepareMentions } from './Markdown.tsx';

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
});
