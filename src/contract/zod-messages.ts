// zod/mini ships without messages (its issues read "Invalid input"). Our parsers' messages only
// reach log lines (a dropped frame: `tip.order_id: expected string, got number`; a bad URL
// parameter's card is worded from the parameter table instead), so rather than zod's English
// locale (about 1.3 kB gzipped on every page) a few words per issue code, in its place.
// Imported for its effect by the modules that build schemas.
import { z } from 'zod/mini';

const kind = (input: unknown) =>
	input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input;

z.config({
	localeError: (issue) => {
		switch (issue.code) {
			case 'invalid_type':
				return `expected ${issue.expected}, got ${kind(issue.input)}`;
			case 'invalid_value':
				return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
			case 'too_big':
				return `${issue.origin} above ${issue.inclusive ? 'the maximum' : 'the limit'} ${issue.maximum}`;
			case 'too_small':
				return `${issue.origin} below ${issue.inclusive ? 'the minimum' : 'the limit'} ${issue.minimum}`;
			case 'invalid_format':
				return `not a valid ${issue.format}`;
			case 'unrecognized_keys':
				return `unknown keys ${issue.keys.join(', ')}`;
			default:
				return issue.code.replace(/_/g, ' ');
		}
	}
});
