// ESLint (`npm run lint`, which `npm test` runs first): the recommended rules of ESLint,
// typescript-eslint and eslint-plugin-svelte, the size limits (files of at most 400 lines, the
// app's functions of at most 60), and the layer rule below, which keeps every import pointing
// down (docs/architecture.md, "Layers and the entry point"):
//   src/contract   the wire types: imports nothing of ours
//   src/core       pure logic: imports contract
//   src/client     browser adapters: imports core and contract
//   src/server     the token endpoint: imports core and contract
//   src/hosted     hosted mode: imports server, core and contract
//   src/sim        the simulator: imports core and contract
//   widgets/shared the widgets' shared parts: imports client, core and contract
//   widgets/<name> one widget: imports widgets/shared, client, core, contract and its own files;
//                  the overlay and the preview place other widgets, and the settings editor
//                  reads their parameter tables, so they may import them too
//   src/pages      page entry points: mount widgets, so they may import any of the above but the
//                  server side (server, hosted, sim)
//   src/main.ts    the process's entry point: may import everything; nothing imports it (it hands
//                  the server the widgets' parameter schemas, widgets/settings/schemas.ts)
//   src/tools      build-time scripts: import nothing of ours
// Tests and benches may import anything; nothing of the app imports them.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import boundaries from 'eslint-plugin-boundaries';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';

/** Each layer, the folder (or file) it is, and the layers it may import besides its own. */
const LAYERS = {
	contract: { pattern: 'src/contract', imports: [] },
	core: { pattern: 'src/core', imports: ['contract'] },
	client: { pattern: 'src/client', imports: ['core', 'contract'] },
	server: { pattern: 'src/server', imports: ['core', 'contract'] },
	hosted: { pattern: 'src/hosted', imports: ['server', 'core', 'contract'] },
	sim: { pattern: 'src/sim', imports: ['core', 'contract'] },
	'widget-shared': { pattern: 'widgets/shared', imports: ['client', 'core', 'contract'] },
	pages: {
		pattern: 'src/pages',
		imports: ['widget', 'widget-shared', 'client', 'core', 'contract']
	},
	tools: { pattern: 'src/tools', imports: [] },
	// Last: the files of src/ itself that no folder above holds (main.ts, and start.js, which runs
	// its build).
	entry: { pattern: 'src', imports: ['server', 'hosted', 'sim', 'widget', 'core', 'contract'] }
};
/** Widgets that place other widgets on one page. */
const COMPOSITE_WIDGETS = ['overlay', 'preview', 'settings'];
const WIDGET_IMPORTS = ['widget-shared', 'client', 'core', 'contract'];

const layerRule = {
	files: ['src/**/*.{ts,js,svelte}', 'widgets/**/*.{ts,js,svelte}'],
	plugins: { boundaries },
	settings: {
		'boundaries/elements': [
			// The first pattern that matches a file's folder, from the repository root, names its
			// layer: widgets/shared before widgets/*, src/<folder> before src.
			...Object.entries(LAYERS).map(([type, { pattern }]) => ({
				type,
				pattern,
				partialMatch: false
			})),
			{ type: 'widget', pattern: 'widgets/*', partialMatch: false, capture: ['name'] }
		],
		'import/resolver': { node: { extensions: ['.ts', '.js', '.svelte'] } }
	},
	rules: {
		'boundaries/dependencies': [
			'error',
			{
				default: 'disallow',
				message:
					'the {{from.type}} layer may not import {{to.type}} (see LAYERS in eslint.config.js)',
				policies: [
					...Object.entries(LAYERS).map(([type, { imports }]) => ({
						from: { element: { type } },
						allow: { to: { element: { types: { anyOf: [type, ...imports] } } } }
					})),
					// A widget imports its own files and the layers under it.
					{
						from: { element: { type: 'widget' } },
						allow: { to: { element: { types: { anyOf: WIDGET_IMPORTS } } } }
					},
					{
						from: { element: { type: 'widget', captured: { name: '{{ from.captured.name }}' } } },
						allow: {
							to: { element: { type: 'widget', captured: { name: '{{ from.captured.name }}' } } }
						}
					},
					{
						from: {
							element: { type: 'widget', captured: COMPOSITE_WIDGETS.map((name) => ({ name })) }
						},
						allow: { to: { element: { type: 'widget' } } }
					}
				]
			}
		],
		// Every file of src/ and widgets/ belongs to a layer, and imports only files that do.
		'boundaries/no-unknown-files': 'error',
		'boundaries/no-unknown-dependencies': 'error'
	}
};

// No import circles, within a layer too (the layer rule above sees only imports across layers):
// two modules that need one name take it from a leaf module both import. An import of types only
// is left out, as it is gone once built.
const cycleRule = {
	files: ['src/**/*.{ts,js,svelte}', 'widgets/**/*.{ts,js,svelte}', 'tests/**/*.ts'],
	plugins: { 'import-x': importX },
	// A .svelte file that a .ts file imports is read with the options the .svelte files get below.
	languageOptions: { parserOptions: { parser: ts.parser, extraFileExtensions: ['.svelte'] } },
	settings: {
		'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.svelte'] })],
		'import-x/extensions': ['.ts', '.js', '.svelte'],
		'import-x/parsers': {
			'@typescript-eslint/parser': ['.ts', '.js'],
			'svelte-eslint-parser': ['.svelte']
		}
	},
	rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] }
};

export default defineConfig(
	{ ignores: ['dist/', 'dist-server/', 'test-results/', 'playwright-report/', 'bench/results/'] },
	js.configs.recommended,
	ts.configs.recommended,
	svelte.configs.recommended,
	{
		languageOptions: { globals: { ...globals.browser, ...globals.node } },
		rules: {
			// A leading underscore marks a parameter or a binding kept for its position or left out
			// of a copy on purpose (`const { secret: _gone, ...rest } = row`).
			'@typescript-eslint/no-unused-vars': [
				'error',
				{
					argsIgnorePattern: '^_',
					varsIgnorePattern: '^_',
					caughtErrorsIgnorePattern: '^_',
					ignoreRestSiblings: true
				}
			],
			// The tests read JSON bodies of every shape as `any`, and the source's few uses are generic
			// plumbing (a migrator over any schema, a field table of any value type).
			'@typescript-eslint/no-explicit-any': 'off',
			// The rune classes keep plain Maps, Sets and Dates on purpose for bookkeeping that no markup
			// reads; what the markup reads is in $state fields.
			'svelte/prefer-svelte-reactivity': 'off',
			// Lists of components that keep state (counters, an overlay's widgets) are keyed; short
			// lists of text (an error card's problems, debug rows) may repeat an entry, which a key
			// would refuse, and are simply written again when they change.
			'svelte/require-each-key': 'off'
		}
	},
	{
		// TypeScript itself reports undefined names (and knows global namespaces such as gsap's types).
		files: ['**/*.ts', '**/*.svelte'],
		rules: { 'no-undef': 'off' }
	},
	{
		files: ['**/*.svelte', '**/*.svelte.ts'],
		languageOptions: { parserOptions: { parser: ts.parser, extraFileExtensions: ['.svelte'] } }
	},
	{
		// Units one can read in one sitting: no file over 400 lines (blank lines and comments count
		// too, since a reader scrolls past them as well).
		rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] }
	},
	{
		// A function of the app over 60 lines of code either splits into named parts or says, in an
		// eslint-disable comment's description, why its length is the clearest form (one playback's
		// state and its event handlers kept together, a data table). Tests and benches are exempt: a
		// describe block is a list of cases, not a unit to read in one go.
		files: ['src/**/*.{ts,js,svelte}', 'widgets/**/*.{ts,js,svelte}'],
		rules: {
			'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }]
		}
	},
	{
		// Playwright reads a fixture's dependencies from its first parameter: `({}, use)` asks for none.
		files: ['tests/e2e/**'],
		rules: { 'no-empty-pattern': 'off' }
	},
	layerRule,
	cycleRule
);
