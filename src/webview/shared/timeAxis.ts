// The labels of the chart's time axis: 24-hour times, as the readout and the tables write them, with the day
// (month and year names of the display language) under the first label and wherever the day changes. uPlot's
// own labels are English with am/pm.
import { pad } from './time';

const DAY = 86_400;

interface Parts {
  year: number;
  month: number;
  day: number;
  hours: number;
  minutes: number;
  seconds: number;
  ms: number;
}

function partsOf(epochSeconds: number, utc: boolean): Parts {
  const d = new Date(epochSeconds * 1000);
  return utc
    ? {
        year: d.getUTCFullYear(),
        month: d.getUTCMonth(),
        day: d.getUTCDate(),
        hours: d.getUTCHours(),
        minutes: d.getUTCMinutes(),
        seconds: d.getUTCSeconds(),
        ms: d.getUTCMilliseconds(),
      }
    : {
        year: d.getFullYear(),
        month: d.getMonth(),
        day: d.getDate(),
        hours: d.getHours(),
        minutes: d.getMinutes(),
        seconds: d.getSeconds(),
        ms: d.getMilliseconds(),
      };
}

export interface TimeAxisOptions {
  utc: boolean;
  /** A BCP 47 tag accepted by Intl (the caller has checked it). */
  locale: string;
}

/** The label of each split (epoch seconds) when splits are `increment` seconds apart. */
export function timeAxisLabels(splits: readonly number[], increment: number, o: TimeAxisOptions): string[] {
  const timeZone = o.utc ? 'UTC' : undefined;
  const dayMonth = new Intl.DateTimeFormat(o.locale, { day: 'numeric', month: 'short', timeZone });
  const monthOnly = new Intl.DateTimeFormat(o.locale, { month: 'short', timeZone });
  let previous: Parts | undefined;
  return splits.map((s) => {
    const p = partsOf(s, o.utc);
    const date = new Date(s * 1000);
    const newDay =
      previous === undefined || p.day !== previous.day || p.month !== previous.month || p.year !== previous.year;
    const newYear = previous === undefined || p.year !== previous.year;
    previous = p;
    if (increment < DAY) {
      const hm = `${pad(p.hours)}:${pad(p.minutes)}`;
      // Zoomed in below a second (uPlot steps down to 1 ms), the milliseconds tell the labels apart.
      const time =
        increment < 1
          ? `${hm}:${pad(p.seconds)}.${String(p.ms).padStart(3, '0')}`
          : increment < 60
            ? `${hm}:${pad(p.seconds)}`
            : hm;
      return newDay ? `${time}\n${dayMonth.format(date)}` : time;
    }
    const label = increment < 28 * DAY ? dayMonth.format(date) : monthOnly.format(date);
    return newYear ? `${label}\n${p.year}` : label;
  });
}
