// zod/mini ships without messages (its issues read "Invalid input"); zod classic loads English
// itself. The browser's parsers load English too: a bad URL parameter's card and a dropped frame's
// log line say what was expected. Imported for its effect by the modules that build schemas.
import { z } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());
