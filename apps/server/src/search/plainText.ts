/**
 * A post's, comment's or topic's Markdown as the plain text a reader sees, for the search index and
 * its snippets: mentions as `@Name` (no ids), links and images as their text (no targets), no HTML,
 * no Markdown marks (emphasis, headings, quotes, list bullets, code fences, table rules), entities
 * decoded, whitespace (line breaks included) collapsed to single spaces.
 */
export function plainTextOf(markdown: string): string {
  const text = markdown
    .replace(/\r\n?/g, '\n')
    .replace(/@\[([^\]\n]{1,200})\]\(user:[A-Za-z0-9-]{1,64}\)/g, '@$1')
    .replace(/```[^\n]*\n?([\s\S]*?)```/g, '$1')
    // Images and links (a target may hold one level of parentheses), then reference-style links.
    .replace(/!\[([^\]]*)\]\((?:[^()\n]|\([^()\n]*\))*\)/g, '$1')
    .replace(/\[([^\]]*)\]\((?:[^()\n]|\([^()\n]*\))*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/^\s{0,3}\[[^\]]+\]:\s*\S+.*$/gm, '')
    // Autolinks keep their address: it is the text a reader sees.
    .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?[A-Za-z][^>]*>/g, '')
    .replace(/&(lt|gt|amp|quot|#39|nbsp);/g, (_, e: string) =>
      e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'amp' ? '&' : e === 'quot' ? '"' : e === '#39' ? "'" : ' ',
    );
  const lines: string[] = [];
  for (const raw of text.split('\n')) {
    // A table's rule line and a thematic break are marks only.
    if (/^\s*(-{3,}|\*{3,}|_{3,}|\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?)\s*$/.test(raw)) continue;
    const line = raw
      .replace(/^\s{0,3}(#{1,6}\s+|>+\s?)+/, '')
      .replace(/^\s*([-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?/, '')
      .replace(/\\([\\`*_{}[\]()#+\-.!|~<>])/g, '$1')
      .replace(/(\*\*|__|~~|`)/g, '')
      .replace(/(^|[\s(])[*_](?=\S)/g, '$1')
      .replace(/(\S)[*_](?=$|[\s).,!?:;])/g, '$1')
      // A table row: its cells, without the pipes.
      .replace(/^\s*\|(.*?)\|?\s*$/, (_, cells: string) => cells.replace(/\s*\|\s*/g, ' '));
    lines.push(line);
  }
  // Control characters, line separators and bidirectional overrides never reach a snippet.
  return lines
    .join(' ')
    .replace(/[\p{Cc}\p{Zl}\p{Zp}\u202a-\u202e\u2066-\u2069]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
