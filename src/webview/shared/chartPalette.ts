// The colours of the results chart's lines: the theme's chart colours (--vscode-charts-*) first, then
// colours made for the theme's background, each taken only when it is clearly unlike every colour taken
// before and unlike the red of a preview's threshold and firings. A theme's own colours can be near one
// another (Light+'s orange #d18616 and yellow #bf8803), and a fixed list after them repeated some of them,
// so two lines could look alike. "Unlike" is a distance in OKLab, where equal distances look about
// equally different. No DOM: the page reads the theme's variables and hands them in.

/** A colour in OKLab: lightness 0 (black) to 1 (white), and two opponent axes. */
interface Lab {
  l: number;
  a: number;
  b: number;
}

/** Lines whose colours lie closer than this in OKLab are too easily taken for one another. */
export const MIN_SERIES_DISTANCE = 0.1;

/** The theme's colours as the page reads them (CSS colour text; empty when the theme does not set one). */
export interface ChartTheme {
  /** The chart colours the lines may take, in the order they are offered (blue, orange, green, purple, yellow). */
  series: readonly string[];
  /** The colour of a preview's threshold and firings (--vscode-charts-red): no line looks like it. */
  danger: string;
  /** The editor's background, which decides how light the made colours are. */
  background: string;
}

const srgbToLinear = (c: number): number => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const linearToSrgb = (c: number): number => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

/** sRGB channels 0..1 to OKLab (Björn Ottosson's matrices). */
function toLab([r, g, b]: readonly [number, number, number]): Lab {
  const [lr, lg, lb] = [r, g, b].map(srgbToLinear) as [number, number, number];
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return {
    l: 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    a: 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    b: 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  };
}

/** OKLab to sRGB channels 0..1; undefined when the colour lies outside what a screen shows. */
function fromLab({ l: L, a, b }: Lab): [number, number, number] | undefined {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const rgb = [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ].map(linearToSrgb);
  if (!rgb.every((c) => c >= -1e-9 && c <= 1 + 1e-9)) return undefined;
  return rgb.map((c) => Math.min(1, Math.max(0, c))) as [number, number, number];
}

/** `#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb()` or `rgba()` text as sRGB channels 0..1 (no alpha); else undefined. */
function parseColour(text: string): [number, number, number] | undefined {
  const t = text.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(t)?.[1];
  if (hex !== undefined) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255) as [number, number, number];
  }
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(t);
  if (!rgb) return undefined;
  return [rgb[1], rgb[2], rgb[3]].map((c) => Math.min(255, Number(c)) / 255) as [number, number, number];
}

const hexOf = (rgb: readonly number[]): string =>
  `#${rgb
    .map((c) =>
      Math.round(c * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** How different two colours look: their distance in OKLab (0: the same; 0.1: clearly two colours). */
export function colourDistance(x: string, y: string): number {
  const [p, q] = [parseColour(x), parseColour(y)];
  if (p === undefined || q === undefined) return Number.NaN;
  const [a, b] = [toLab(p), toLab(q)];
  return Math.hypot(a.l - b.l, a.a - b.a, a.b - b.b);
}

/**
 * Colours made for the background: hues 30° apart (starting from one no theme colour takes), at the
 * lightness lines read well at on it (light on a dark background, dark on a light one), then at a second
 * lightness; each as saturated as a screen shows it.
 */
function madeColours(background: string): string[] {
  const bg = parseColour(background);
  const dark = bg === undefined || toLab(bg).l < 0.6;
  const out: string[] = [];
  for (const lightness of dark ? [0.75, 0.6, 0.88] : [0.52, 0.68, 0.4]) {
    for (let hue = 15; hue < 360; hue += 30) {
      const angle = (hue * Math.PI) / 180;
      // The most chroma up to 0.16 that stays on screen at this hue and lightness.
      for (let chroma = 0.16; chroma > 0.02; chroma -= 0.01) {
        const rgb = fromLab({ l: lightness, a: chroma * Math.cos(angle), b: chroma * Math.sin(angle) });
        if (rgb === undefined) continue;
        out.push(hexOf(rgb));
        break;
      }
    }
  }
  return out;
}

/**
 * `count` colours for the chart's lines: the theme's chart colours first, then made ones, each taken only
 * when it lies at least MIN_SERIES_DISTANCE from every colour taken and from the danger red. Should a
 * theme leave too few such colours, the rest are the made colours farthest from those taken.
 */
export function seriesColours(theme: ChartTheme, count: number): string[] {
  const taken: string[] = [];
  // A colour the distance cannot be measured to (an unreadable danger colour) stands in no candidate's way.
  const unlike = (c: string): boolean =>
    [theme.danger, ...taken].every((t) => !(colourDistance(c, t) < MIN_SERIES_DISTANCE));
  const candidates = [...theme.series.filter((c) => parseColour(c) !== undefined), ...madeColours(theme.background)];
  for (const c of candidates) {
    if (taken.length === count) break;
    if (unlike(c)) taken.push(c);
  }
  while (taken.length < count) {
    const nearest = (c: string): number => Math.min(...taken.map((t) => colourDistance(c, t)));
    const [best] = candidates.filter((c) => !taken.includes(c)).sort((x, y) => nearest(y) - nearest(x));
    if (best === undefined) break;
    taken.push(best);
  }
  return taken;
}
