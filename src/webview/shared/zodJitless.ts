// zod would otherwise probe `new Function` once, which the webview's CSP (no 'unsafe-eval') reports as a
// violation even though zod catches the error. Its own module, imported before any module that builds a schema.
import * as z from 'zod';

z.config({ jitless: true });
