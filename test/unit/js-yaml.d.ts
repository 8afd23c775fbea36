// The one function of js-yaml the tests use: the package ships no types of its own.
declare module 'js-yaml' {
  export function load(text: string, options?: { filename?: string }): unknown;
}
