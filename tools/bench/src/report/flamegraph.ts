/**
 * A V8 .cpuprofile (node --cpu-prof) as folded stacks, a flame graph SVG and the functions with
 * the most self time. Time comes from the profile's samples and their time deltas, so a sample
 * weighs what the sampler measured, not a nominal interval.
 */

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** Keeps samples taken in [fromMicros, toMicros] (the profile's clock: CLOCK_MONOTONIC on Linux). */
export interface SampleWindow {
  fromMicros: number;
  toMicros: number;
}

/** Frames that stand for no JavaScript: left out of the graph, reported as shares instead. */
const IDLE = '(idle)';

export interface FlameNode {
  name: string;
  origin: FrameOrigin;
  selfMicros: number;
  totalMicros: number;
  children: FlameNode[];
}

export type FrameOrigin = 'starsgate' | 'dependency' | 'node' | 'v8';

export interface SelfTimeRow {
  name: string;
  location: string;
  origin: FrameOrigin;
  selfMicros: number;
  selfShare: number;
  totalMicros: number;
  totalShare: number;
}

export interface ProfileSummary {
  root: FlameNode;
  /** Time in the window, idle included. */
  sampledMicros: number;
  idleMicros: number;
  /** Samples actually used (inside the window). */
  samples: number;
  top: SelfTimeRow[];
  folded: string;
}

/** `node_modules/express/lib/router.js` → `express/lib/router.js`; the repo's own paths relative to it. */
export function shortLocation(url: string, root: string): string {
  let file = url.replace(/^file:\/\//, '');
  const modules = file.lastIndexOf('node_modules/');
  if (modules >= 0) file = file.slice(modules + 'node_modules/'.length);
  else if (root && file.startsWith(root)) file = file.slice(root.length).replace(/^\//, '');
  return file;
}

function originOf(url: string, functionName: string): FrameOrigin {
  if (!url) return functionName.startsWith('(') ? 'v8' : 'node';
  if (url.startsWith('node:')) return 'node';
  if (url.includes('node_modules/')) return 'dependency';
  return 'starsgate';
}

function frameName(node: CpuProfileNode, root: string): { name: string; location: string; origin: FrameOrigin } {
  const { functionName, url, lineNumber } = node.callFrame;
  const name = functionName || '(anonymous)';
  // TypeScript runs transpiled (tsx): its line numbers are the generated code's, so only the file is named.
  const file = url ? shortLocation(url, root) : '';
  const location = !file ? '' : /\.[cm]?ts$/.test(file) ? file : `${file}:${lineNumber + 1}`;
  return { name: location ? `${name} ${location}` : name, location, origin: originOf(url, functionName) };
}

/** Self time per profile node id, from samples within the window. */
function selfTimes(profile: CpuProfile, window?: SampleWindow): { self: Map<number, number>; samples: number } {
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let now = profile.startTime;
  let used = 0;
  if (samples.length === 0) {
    for (const node of profile.nodes) if (node.hitCount) self.set(node.id, node.hitCount);
    return { self, samples: [...self.values()].reduce((a, b) => a + b, 0) };
  }
  for (let i = 0; i < samples.length; i += 1) {
    const delta = deltas[i] ?? 0;
    now += delta;
    if (window && (now < window.fromMicros || now > window.toMicros)) continue;
    // A sample stands for the interval until the next one; the last has no successor, so its own delta.
    const weight = Math.max(0, deltas[i + 1] ?? delta);
    self.set(samples[i]!, (self.get(samples[i]!) ?? 0) + weight);
    used += 1;
  }
  return { self, samples: used };
}

export function summarizeProfile(
  profile: CpuProfile,
  options: { root?: string; window?: SampleWindow; top?: number } = {},
): ProfileSummary {
  const rootDir = options.root ?? process.cwd();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  let { self, samples } = selfTimes(profile, options.window);
  if (options.window && samples === 0) ({ self, samples } = selfTimes(profile));

  const sampledMicros = [...self.values()].reduce((a, b) => a + b, 0);
  let idleMicros = 0;
  const rootNode = profile.nodes.find((node) => !parent.has(node.id)) ?? profile.nodes[0]!;

  // The flame tree merges siblings of the same name (V8 already does, but names here drop columns).
  const build = (id: number): FlameNode => {
    const node = byId.get(id)!;
    const { name, origin } = frameName(node, rootDir);
    const flame: FlameNode = { name, origin, selfMicros: self.get(id) ?? 0, totalMicros: 0, children: [] };
    const merged = new Map<string, FlameNode>();
    for (const childId of node.children ?? []) {
      const child = byId.get(childId)!;
      if (child.callFrame.functionName === IDLE) {
        idleMicros += self.get(childId) ?? 0;
        continue;
      }
      const built = build(childId);
      if (built.totalMicros === 0) continue;
      const twin = merged.get(built.name);
      if (twin) mergeInto(twin, built);
      else merged.set(built.name, built);
    }
    flame.children = [...merged.values()].sort((a, b) => a.name.localeCompare(b.name));
    flame.totalMicros = flame.selfMicros + flame.children.reduce((sum, child) => sum + child.totalMicros, 0);
    return flame;
  };
  const root = build(rootNode.id);
  root.name = 'all';

  // Self and inclusive time per function (name + location); a recursive function counts once per stack.
  const rows = new Map<string, SelfTimeRow>();
  const busyMicros = sampledMicros - idleMicros;
  for (const [id, micros] of self) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === IDLE || micros === 0) continue;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined && at !== rootNode.id; at = parent.get(at)) {
      const frame = frameName(byId.get(at)!, rootDir);
      const key = frame.name;
      const row = rows.get(key) ?? {
        name: byId.get(at)!.callFrame.functionName || '(anonymous)',
        location: frame.location,
        origin: frame.origin,
        selfMicros: 0,
        selfShare: 0,
        totalMicros: 0,
        totalShare: 0,
      };
      if (at === id) row.selfMicros += micros;
      if (!seen.has(key)) row.totalMicros += micros;
      seen.add(key);
      rows.set(key, row);
    }
  }
  const top = [...rows.values()]
    .map((row) => ({ ...row, selfShare: row.selfMicros / busyMicros, totalShare: row.totalMicros / busyMicros }))
    .sort((a, b) => b.selfMicros - a.selfMicros)
    .slice(0, options.top ?? 20);

  return { root, sampledMicros, idleMicros, samples, top, folded: foldStacks(root) };
}

function mergeInto(target: FlameNode, source: FlameNode): void {
  target.selfMicros += source.selfMicros;
  target.totalMicros += source.totalMicros;
  for (const child of source.children) {
    const twin = target.children.find((candidate) => candidate.name === child.name);
    if (twin) mergeInto(twin, child);
    else target.children.push(child);
  }
}

/** Brendan Gregg's folded format: `frame;frame;frame <self microseconds>`, one line per stack. */
export function foldStacks(root: FlameNode): string {
  const lines: string[] = [];
  const walk = (node: FlameNode, stack: string[]) => {
    const here = node === root ? stack : [...stack, node.name.replace(/;/g, ':')];
    if (node.selfMicros > 0 && here.length > 0) lines.push(`${here.join(';')} ${Math.round(node.selfMicros)}`);
    for (const child of node.children) walk(child, here);
  };
  walk(root, []);
  return `${lines.join('\n')}\n`;
}

const ORIGIN_COLOURS: Record<FrameOrigin, [number, number]> = {
  // hue range per origin: the service's own code green, dependencies orange, Node red, V8 grey-blue.
  starsgate: [95, 140],
  dependency: [25, 45],
  node: [0, 15],
  v8: [200, 220],
};

function colour(node: FlameNode): string {
  let hash = 0;
  for (let i = 0; i < node.name.length; i += 1) hash = (hash * 31 + node.name.charCodeAt(i)) >>> 0;
  const [from, to] = ORIGIN_COLOURS[node.origin];
  const hue = from + (hash % (to - from + 1));
  const lightness = node.origin === 'v8' ? 72 : 62 + (hash % 10);
  return `hsl(${hue}, 70%, ${lightness}%)`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A classic flame graph (root at the bottom, width = inclusive time, siblings alphabetical) as
 * SVG, with a title and a colour legend. Frames narrower than `minWidthPx` are dropped.
 */
export function flameGraphSvg(
  summary: ProfileSummary,
  options: { title: string; subtitle?: string; width?: number; minWidthPx?: number },
): string {
  const width = options.width ?? 1600;
  const frameHeight = 17;
  const margin = 10;
  const header = options.subtitle ? 62 : 44;
  const legendHeight = 26;
  const minWidth = options.minWidthPx ?? 0.6;
  const usable = width - 2 * margin;
  const total = summary.root.totalMicros || 1;
  const scale = usable / total;

  let depth = 0;
  const frames: Array<{ node: FlameNode; x: number; level: number; w: number }> = [];
  const place = (node: FlameNode, x: number, level: number) => {
    const w = node.totalMicros * scale;
    if (w < minWidth) return;
    depth = Math.max(depth, level);
    frames.push({ node, x, level, w });
    let childX = x;
    for (const child of node.children) {
      place(child, childX, level + 1);
      childX += child.totalMicros * scale;
    }
  };
  place(summary.root, margin, 0);

  const graphHeight = (depth + 1) * frameHeight;
  const height = header + graphHeight + legendHeight + margin;
  const charWidth = 6.6;
  const body = frames
    .map(({ node, x, level, w }) => {
      const y = header + graphHeight - (level + 1) * frameHeight;
      const share = ((node.totalMicros / total) * 100).toFixed(node.totalMicros / total < 0.01 ? 2 : 1);
      const fits = Math.floor((w - 6) / charWidth);
      const label = fits >= 3 ? (node.name.length > fits ? `${node.name.slice(0, fits - 2)}..` : node.name) : '';
      return (
        `<g><title>${escapeXml(`${node.name} — ${share} %`)}</title>` +
        `<rect x="${x.toFixed(2)}" y="${y}" width="${Math.max(w - 0.5, 0.3).toFixed(2)}" height="${frameHeight - 1}" fill="${colour(node)}" rx="1"/>` +
        (label
          ? `<text x="${(x + 3).toFixed(2)}" y="${y + frameHeight - 5}" font-size="11" font-family="DejaVu Sans Mono, Liberation Mono, monospace" fill="#000">${escapeXml(label)}</text>`
          : '') +
        '</g>'
      );
    })
    .join('\n');
  const legendY = header + graphHeight + 8;
  const legend = (
    [
      ['starsgate', 'starsgate code (apps/, packages/)'],
      ['dependency', 'dependencies (node_modules)'],
      ['node', 'Node.js internals'],
      ['v8', 'V8 / native (GC, program)'],
    ] as const
  )
    .map(([origin, text], i) => {
      const x = margin + i * 330;
      const [from] = ORIGIN_COLOURS[origin];
      return (
        `<rect x="${x}" y="${legendY}" width="14" height="14" fill="hsl(${from}, 70%, ${origin === 'v8' ? 72 : 65}%)"/>` +
        `<text x="${x + 20}" y="${legendY + 12}" font-size="13" font-family="DejaVu Sans, Liberation Sans, sans-serif">${escapeXml(text)}</text>`
      );
    })
    .join('\n');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${width / 2}" y="26" text-anchor="middle" font-size="18" font-weight="bold" font-family="DejaVu Sans, Liberation Sans, sans-serif">${escapeXml(options.title)}</text>`,
    options.subtitle
      ? `<text x="${width / 2}" y="48" text-anchor="middle" font-size="13" fill="#444" font-family="DejaVu Sans, Liberation Sans, sans-serif">${escapeXml(options.subtitle)}</text>`
      : '',
    body,
    legend,
    '</svg>',
  ].join('\n');
}
