// The glob dialect of obs's command line: picomatch's, as tinyglobby (which expands the globs) loads
// it, with the options tinyglobby gives it (POSIX classes; dot files only when named). A pattern as a
// regular expression over `/`-separated relative paths, to state the dialect.
import { createRequire } from 'node:module';

const fromTinyglobby = createRequire(createRequire(import.meta.url).resolve('tinyglobby'));
const picomatch = fromTinyglobby('picomatch') as {
  makeRe(glob: string, options: { posix: boolean; dot: boolean }): RegExp;
};

export function globToRegExp(glob: string): RegExp {
  return picomatch.makeRe(glob, { posix: true, dot: false });
}
