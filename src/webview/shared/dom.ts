// What every page does with its DOM: find an element, draw its lit-html view into the page, put parts
// into a translated sentence. lit-html puts every bound value in as text or as a property, so a service
// string such as `<img src=x onerror=alert(1)>` is shown as those characters and never parsed as markup.
import { render } from 'lit-html';

/** The element with this id, which the page is known to hold. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`form element #${id} is missing`);
  return el as T;
}

const drawn = new WeakSet<HTMLElement>();

/**
 * Draws `view` into `container`, updating in place what an earlier drawing left (a focused field keeps
 * its focus and caret). The first drawing replaces what the host's page put there ("Loading…").
 */
export function drawPage(container: HTMLElement, view: unknown): void {
  if (!drawn.has(container)) {
    container.replaceChildren();
    drawn.add(container);
  }
  render(view, container);
}

/**
 * A translated sentence with parts in it: `{0}`, `{1}`... of the template become the given values (a
 * <time>, say), so a translation can put them where its language needs them ("Changed on the service {0}.").
 */
export function sentence(template: string, ...values: unknown[]): unknown[] {
  return template.split(/(\{\d+\})/).map((part) => {
    const slot = /^\{(\d+)\}$/.exec(part);
    return slot ? (values[Number(slot[1])] ?? part) : part;
  });
}

/** Parses number text: '' is "cleared" (null), a number is a number, anything else is undefined. */
export function parseNumberText(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^[-+]?\d+(\.\d+)?$/.test(trimmed)) return undefined;
  return Number(trimmed);
}
