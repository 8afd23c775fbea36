// Imported first by every page script, before anything that can build a schema or show a text.
import './zodJitless';
import { applyPageL10n } from './pageL10n';

applyPageL10n();
