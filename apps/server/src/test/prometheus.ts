/** One sample of a scrape: `name{labels} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A parsed scrape of the Prometheus text format (version 0.0.4). */
export interface Scrape {
  samples: Sample[];
  /** Each family's type from its `# TYPE` line (`counter`, `gauge`, `histogram`, ...). */
  types: Map<string, string>;
  /** The value of the sample with this name whose labels include `labels`; undefined if none. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** The sum of the samples with this name whose labels include `labels` (0 if none). */
  sum(name: string, labels?: Record<string, string>): number;
  /** The samples with this name. */
  all(name: string): Sample[];
}

const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/y;

/** The labels of `{a="1",b="x\"y"}` (without the braces). */
function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let at = 0;
  while (at < text.length) {
    LABEL.lastIndex = at;
    const match = LABEL.exec(text);
    if (!match) throw new Error(`not a label list: {${text}}`);
    labels[match[1]!] = match[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    at = LABEL.lastIndex;
    if (text[at] === ',') at++;
  }
  return labels;
}

/**
 * Parses what a `/metrics` scrape answers: a small parser for the tests, so that they read the text
 * Prometheus reads rather than the registry's objects. Throws on a line it cannot read.
 */
export function parseScrape(text: string): Scrape {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    if (line.startsWith('#')) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
    if (!sample) throw new Error(`not a sample line: ${line}`);
    const value = sample[3] === 'NaN' ? Number.NaN : Number(sample[3]!.replace(/^\+Inf$/, 'Infinity'));
    samples.push({ name: sample[1]!, labels: parseLabels(sample[2] ?? ''), value });
  }
  const matching = (name: string, labels: Record<string, string>) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return {
    samples,
    types,
    value: (name, labels = {}) => matching(name, labels)[0]?.value,
    sum: (name, labels = {}) => matching(name, labels).reduce((n, s) => n + s.value, 0),
    all: (name) => samples.filter((s) => s.name === name),
  };
}
