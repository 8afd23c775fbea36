// Imported first by every form script. zod would otherwise probe `new Function` once, which the
// webview's CSP (no 'unsafe-eval') reports as a violation even though zod catches the error.
import * as z from 'zod';

z.config({ jitless: true });
