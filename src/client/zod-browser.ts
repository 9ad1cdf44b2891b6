// The browser bundle's `zod` (vite.config.ts aliases the bare import here): zod/mini, the same
// parser with a tree-shakable functional API and a fraction of the bytes, given the few chained
// methods the contract and the parameter schemas use (`z.string().min(1).nullable()`), each
// defined exactly as zod classic defines it. Node code (server, simulator) keeps zod classic.
// The vitest project 'browser-zod' runs the unit tests with this alias, so a method the contract
// starts using but this file lacks fails at test time (schemas are built when a module loads).
//
// The methods go on the prototypes of the mini schema classes, shared by every instance: zod's
// constructors see them there and add nothing per instance.
import * as zm from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// zod classic loads its English messages itself; mini leaves that to us.
zm.config(en());

type Schema = zm.ZodMiniType & { type: string };
// Each method passes its caller's params (a message or `{ error }`) on unchanged, as classic does.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Params = any;

const methods: Record<string, (this: Schema, ...args: any[]) => unknown> = {
	nullable() {
		return zm.nullable(this);
	},
	optional() {
		return zm.optional(this);
	},
	array() {
		return zm.array(this);
	},
	pipe(next: zm.ZodMiniType) {
		return zm.pipe(this, next);
	},
	transform(fn: (value: unknown) => unknown) {
		return zm.pipe(this, zm.transform(fn));
	},
	refine(fn: (value: unknown) => unknown, params?: Params) {
		return this.check(zm.refine(fn, params));
	},
	extend(shape: zm.core.$ZodShape) {
		return zm.extend(this as unknown as zm.ZodMiniObject, shape);
	},
	catch(value: unknown) {
		return zm.catch(this, value as never);
	},
	default(value: unknown) {
		return zm._default(this, value as never);
	},
	/** zod classic: numbers are finite already; kept for its API. */
	finite() {
		return this;
	},
	partial() {
		return zm.partial(this as unknown as zm.ZodMiniObject);
	},
	// Numbers: a bound; strings and arrays: a length.
	min(n: number, params?: Params) {
		return this.check(this.type === 'number' ? zm.gte(n, params) : zm.minLength(n, params));
	},
	max(n: number, params?: Params) {
		return this.check(this.type === 'number' ? zm.lte(n, params) : zm.maxLength(n, params));
	},
	int(params?: Params) {
		return this.check(zm.int(params));
	},
	positive(params?: Params) {
		return this.check(zm.positive(params));
	},
	regex(pattern: RegExp, params?: Params) {
		return this.check(zm.regex(pattern, params));
	},
	startsWith(prefix: string, params?: Params) {
		return this.check(zm.startsWith(prefix, params));
	},
	trim() {
		return this.check(zm.trim());
	},
	toLowerCase() {
		return this.check(zm.toLowerCase());
	},
	url(params?: Params) {
		return this.check(zm.url(params));
	},
	datetime(params?: Params) {
		return this.check(zm.iso.datetime(params));
	}
};

for (const schema of [
	zm.ZodMiniString,
	zm.ZodMiniNumber,
	zm.ZodMiniNumberFormat,
	zm.ZodMiniBoolean,
	zm.ZodMiniObject,
	zm.ZodMiniArray,
	zm.ZodMiniLiteral,
	zm.ZodMiniEnum,
	zm.ZodMiniUnion,
	zm.ZodMiniRecord,
	zm.ZodMiniUnknown,
	zm.ZodMiniNullable,
	zm.ZodMiniOptional,
	zm.ZodMiniPipe,
	zm.ZodMiniTransform,
	zm.ZodMiniURL,
	zm.ZodMiniISODateTime,
	zm.ZodMiniDefault,
	zm.ZodMiniCatch
])
	for (const [name, fn] of Object.entries(methods))
		Object.defineProperty(schema.prototype, name, {
			value: fn,
			writable: true,
			configurable: true
		});

export const z = {
	string: zm.string,
	number: zm.number,
	int: zm.int,
	boolean: zm.boolean,
	object: zm.object,
	looseObject: zm.looseObject,
	array: zm.array,
	literal: zm.literal,
	enum: zm.enum,
	union: zm.union,
	record: zm.record,
	unknown: zm.unknown,
	url: zm.url,
	iso: zm.iso,
	coerce: zm.coerce
};
