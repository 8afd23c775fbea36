// The colours of the results chart's lines: in every theme VS Code ships (its chart colours as VS Code 1.106
// defines them) and in a theme that sets none, the ten lines drawn take ten colours that are clearly unlike
// one another and unlike the threshold's red, the theme's own chart colours first where they are unlike.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { colourDistance, MIN_SERIES_DISTANCE, seriesColours } from '../../src/webview/shared/chartPalette';
import type { ChartTheme } from '../../src/webview/shared/chartPalette';

/** --vscode-charts-blue, -orange, -green, -purple, -yellow, -red and the editor background of each kind of theme. */
const THEMES: Record<string, ChartTheme> = {
  dark: { series: ['#3794FF', '#d18616', '#89D185', '#B180D7', '#CCA700'], danger: '#F14C4C', background: '#1f1f1f' },
  light: { series: ['#1a85ff', '#d18616', '#388A34', '#652D90', '#BF8803'], danger: '#E51400', background: '#ffffff' },
  'high contrast dark': {
    series: ['#3794FF', '#AB5A00', '#89D185', '#B180D7', '#FFD370'],
    danger: '#F48771',
    background: '#000000',
  },
  'high contrast light': {
    series: ['#1a85ff', '#0F4A85', '#374e06', '#652D90', '#895503'],
    danger: '#B5200D',
    background: '#ffffff',
  },
  'without chart colours': { series: ['', '', '', '', ''], danger: '', background: '' },
};

/** The pairs of colours closer than MIN_SERIES_DISTANCE, with their distance. */
function tooClose(colours: readonly string[]): string[] {
  const close: string[] = [];
  colours.forEach((a, i) =>
    colours.slice(i + 1).forEach((b) => {
      const d = colourDistance(a, b);
      if (!(d >= MIN_SERIES_DISTANCE)) close.push(`${a} ${b} ${d.toFixed(3)}`);
    }),
  );
  return close;
}

describe('the colours of the chart lines', () => {
  for (const [name, theme] of Object.entries(THEMES)) {
    test(`${name}: ten colours, no two alike, none like the threshold's red`, () => {
      const colours = seriesColours(theme, 10);
      assert.equal(new Set(colours).size, 10);
      assert.deepEqual(tooClose(colours), []);
      const likeDanger = colours.filter((c) => colourDistance(c, theme.danger) < MIN_SERIES_DISTANCE);
      if (theme.danger !== '') assert.deepEqual(likeDanger, []);
    });
  }

  test("a theme's chart colours come first, in order, and one too like another is left out: Light+'s yellow is almost its orange", () => {
    const light = THEMES.light as ChartTheme;
    assert.ok(colourDistance('#d18616', '#BF8803') < MIN_SERIES_DISTANCE);
    assert.deepEqual(seriesColours(light, 10).slice(0, 4), ['#1a85ff', '#d18616', '#388A34', '#652D90']);
    assert.equal(seriesColours(light, 10).includes('#BF8803'), false);
  });
});
