// What every page does with its DOM: find an element, draw its lit-html view into the page, put parts
// into a translated sentence. lit-html puts every bound value in as text or as a property, so a service
// string such as `<img src=x onerror=alert(1)>` is shown as those characters and never parsed as markup.
// Every drawing then shows bidi and control characters as visible escapes (protocol/safeText.ts), in its
// text and in the attributes that are read out or shown on hover, so a name with a right-to-left override
// is seen as such and reorders nothing. Values being edited (a field's text) are the user's and stay as
// they are; the form says beside the field when one holds such characters.
import { render } from 'lit-html';
import { hasControls, visibleControls } from '../protocol/safeText';

/** The attributes a user sees or hears besides the text. */
const SHOWN_ATTRIBUTES = ['title', 'aria-label', 'aria-description', 'placeholder', 'label', 'alt'];

/**
 * Shows every control character under `root` as a visible escape. Text nodes are changed in place, which
 * lit-html allows: it compares a binding's new value with the value it last set, not with the DOM.
 */
function showControls(root: Node): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  for (let node = walker.currentNode as Node | null; node !== null; node = walker.nextNode()) {
    if (node instanceof Text) {
      if (hasControls(node.data)) node.data = visibleControls(node.data);
      continue;
    }
    if (!(node instanceof Element)) continue;
    for (const name of SHOWN_ATTRIBUTES) {
      const value = node.getAttribute(name);
      if (value !== null && hasControls(value)) node.setAttribute(name, visibleControls(value));
    }
  }
}

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
  showControls(container);
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
