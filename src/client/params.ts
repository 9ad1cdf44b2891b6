// URL parameters of a widget page, parsed with zod at the page boundary (STYLE.md 3 and 7): every
// bad value becomes one sentence that names the parameter and what it expects, for the ErrorCard.
// Each field is declared once with its schema and default; the README table (paramDocs) adds a
// description per field, typed so that a field without one, or one without a field, does not
// compile. The descriptions stay out of the page: only the README test reads them.
import { z } from 'zod/mini';
import '../contract/zod-messages.ts';

/**
 * How a field parses its raw string: a zod schema, or a function that builds one. The value
 * helpers below (numberIn, oneOf, flag, ...) are functions, so a page's tables hold no schema:
 * parseParams builds the schemas of the parameters the URL sets, and they are garbage once it
 * returns (a page parses its URL once; tens of kB of resident heap on every widget page).
 */
export type ParamSchema<T> = z.ZodMiniType<T, string> | (() => z.ZodMiniType<T, string>);

/** The schema of a field (built now if the field holds a function). */
export function schemaOf<T>(schema: ParamSchema<T>): z.ZodMiniType<T, string> {
	return typeof schema === 'function' ? schema() : schema;
}

/** One URL parameter: how to parse a present value, what it expects, and its default. */
export interface ParamField<T = unknown> {
	/** Parses the raw (non-empty) string value. */
	readonly schema: ParamSchema<T>;
	/** What a good value looks like, e.g. `a number from 0 to 1`; used in errors and docs. */
	readonly expects: string;
	readonly required: boolean;
	/** Used when the parameter is absent or empty. */
	readonly default: T | undefined;
	/** The default as a user would write it in the URL (README column). */
	readonly defaultText: string;
}

export type ParamFields = Record<string, ParamField<any>>;

/**
 * What a form offers for a field (the settings editor, widgets/settings/): the words of a choice,
 * the bounds of a number. Carried by the value helpers' schema functions (oneOf, numberIn,
 * integerIn), so that a page pays a few bytes for it, not a table.
 */
export interface ParamHints {
	readonly options?: readonly string[];
	readonly min?: number;
	readonly max?: number;
	/** 1 for whole numbers. */
	readonly step?: number;
}

/** The parsed values of a field table, keyed by URL parameter name. */
export type ParamValues<F extends ParamFields> = {
	[K in keyof F]: F[K] extends ParamField<infer T> ? T : never;
};

export type ParamResult<T> =
	| {
			ok: true;
			value: T;
			/** Parameters the page does not know (typos, cache busters like `&v=2`); shown in diagnostics. */
			ignored: string[];
	  }
	| { ok: false; errors: string[] };

export interface ParamDoc {
	name: string;
	expects: string;
	default: string;
	description: string;
}

interface FieldOptions {
	expects: string;
}

/** A parameter the page cannot work without. */
export function requiredParam<T>(schema: ParamSchema<T>, opts: FieldOptions): ParamField<T> {
	return { schema, ...opts, required: true, default: undefined, defaultText: 'required' };
}

/** An optional parameter with a default value. */
export function param<T>(
	schema: ParamSchema<T>,
	// NoInfer: T comes from the schema, so `default: 'top'` cannot widen an enum to string.
	opts: FieldOptions & { default: NoInfer<T>; defaultText?: string }
): ParamField<T>;
/** An optional parameter without a default: absent means undefined. */
export function param<T>(
	schema: ParamSchema<T>,
	opts: FieldOptions & { defaultText?: string }
): ParamField<T | undefined>;
export function param<T>(
	schema: ParamSchema<T>,
	opts: FieldOptions & { default?: T; defaultText?: string }
): ParamField<T | undefined> {
	const { default: def, defaultText, ...rest } = opts;
	return {
		schema,
		...rest,
		required: false,
		default: def,
		defaultText: defaultText ?? (def === undefined ? 'unset' : String(def))
	};
}

/**
 * Parses URL parameters (a query string such as `location.search`, or URLSearchParams).
 * An empty value (`&color=`) counts as absent, so a cleared field falls back to its default.
 * A repeated parameter uses its first value, as URLSearchParams.get does.
 */
export function parseParams<F extends ParamFields>(
	fields: F,
	search: string | URLSearchParams
): ParamResult<ParamValues<F>> {
	const params = typeof search === 'string' ? new URLSearchParams(search) : search;
	const ignored: string[] = [];
	for (const name of new Set(params.keys())) if (!Object.hasOwn(fields, name)) ignored.push(name);

	// Field by field, in the order of the table: only the schemas of the parameters the URL sets
	// are built, and each bad parameter gets one sentence however many issues zod found.
	const value: Record<string, unknown> = {};
	const errors: string[] = [];
	for (const [name, field] of Object.entries(fields)) {
		const raw = params.get(name) ?? '';
		if (raw.trim() === '') {
			if (field.required) errors.push(describeProblem(name, field, undefined));
			else if (field.default !== undefined) value[name] = field.default;
			continue;
		}
		const result = schemaOf(field.schema).safeParse(raw);
		if (result.success) value[name] = result.data;
		else errors.push(describeProblem(name, field, raw));
	}
	return errors.length
		? { ok: false, errors }
		: { ok: true, value: value as ParamValues<F>, ignored };
}

function describeProblem(name: string, field: ParamField, value: string | undefined): string {
	if (value === undefined) return `${name}: missing; expected ${field.expects}`;
	return `${name}: expected ${field.expects}, got "${shorten(value)}"`;
}

/** Echoed values are rendered as text, but a 2 kB value or control characters make a bad card. */
function shorten(value: string): string {
	const flat = value.replace(/\p{Cc}/gu, ' ');
	const chars = Array.from(flat);
	return chars.length > 40 ? chars.slice(0, 39).join('') + '…' : flat;
}

/**
 * The rows of a README table for a field table, with one line of description per field. Call it
 * marked pure (the `@__PURE__` annotation): a page that does not list its parameters then drops
 * the call and its text (0.4 to 1.7 kB gzipped a page).
 */
export function paramDocs<F extends ParamFields>(
	fields: F,
	descriptions: { readonly [K in keyof F]: string }
): ParamDoc[] {
	return Object.entries(fields).map(([name, f]) => ({
		name,
		expects: f.expects,
		default: f.defaultText,
		description: descriptions[name]
	}));
}

/** The rows as a Markdown table (parameter, values, default, meaning) for the README. */
export function paramDocsMarkdown(docs: readonly ParamDoc[]): string {
	const cell = (text: string) => text.replace(/\|/g, '\\|');
	return [
		'| parameter | values | default | meaning |',
		'| --- | --- | --- | --- |',
		...docs.map(
			(d) => `| \`${d.name}\` | ${cell(d.expects)} | ${cell(d.default)} | ${cell(d.description)} |`
		)
	].join('\n');
}

// --- Value schemas shared by widgets. Each takes the raw string and refuses anything else; each
// is a function that builds its schema when parseParams needs it (ParamSchema). ---

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A decimal number in [min, max] (no exponents, no hex, no `Infinity`). */
export function numberIn(min: number, max: number): ParamSchema<number> {
	const schema = () =>
		z.pipe(
			z.pipe(z.string().check(z.trim(), z.regex(DECIMAL)), z.transform(Number)),
			z.number().check(z.gte(min), z.lte(max))
		);
	return Object.assign(schema, { min, max });
}

/** A whole number in [min, max]. */
export function integerIn(min: number, max: number): ParamSchema<number> {
	const schema = () =>
		z.pipe(
			z.pipe(z.string().check(z.trim(), z.regex(/^[+-]?\d+$/)), z.transform(Number)),
			z.int().check(z.gte(min), z.lte(max))
		);
	return Object.assign(schema, { min, max, step: 1 });
}

/**
 * One of a fixed list of words, case-insensitive. `z.literal` with a list checks what `z.enum`
 * would (the same issue, the same message) without zod's enum schema on every page (0.2 kB gzipped).
 */
export function oneOf<const T extends readonly [string, ...string[]]>(
	values: T
): ParamSchema<T[number]> {
	const schema = () =>
		z.pipe(
			z.pipe(
				z.string().check(z.trim()),
				z.transform((s) => s.toLowerCase())
			),
			z.literal(values)
		);
	return Object.assign(schema, { options: values });
}

const TRUE_WORDS = ['1', 'true', 'on', 'yes'];
const FALSE_WORDS = ['0', 'false', 'off', 'no'];

/** A switch: 1/true/on/yes or 0/false/off/no. */
export const flag: ParamSchema<boolean> = () =>
	z.pipe(
		z.pipe(
			z.pipe(
				z.string().check(z.trim()),
				z.transform((s) => s.toLowerCase())
			),
			z.literal([...TRUE_WORDS, ...FALSE_WORDS] as [string, ...string[]])
		),
		z.transform((s) => TRUE_WORDS.includes(s))
	);

/** A short identifier: letters, digits, `_` and `-`. */
export function identifier(maxLength: number): ParamSchema<string> {
	return () => z.string().check(z.trim(), z.regex(new RegExp(`^[A-Za-z0-9_-]{1,${maxLength}}$`)));
}
