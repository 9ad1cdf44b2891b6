import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
const { createBuilder } = await import('vite');
const out = mkdtempSync(join(tmpdir(), 'mods-'));
const rows = new Map<string, Map<string, number>>();
const builder = await createBuilder({
	configFile: join(process.cwd(), 'vite.config.ts'), logLevel: 'silent',
	build: { outDir: out, minify: true },
	plugins: [{ name: 'm', generateBundle(_o, bundle) { for (const c of Object.values(bundle)) { if (c.type !== 'chunk') continue; const m = new Map<string, number>(); for (const [id, mod] of Object.entries(c.modules)) m.set(id.replace(process.cwd() + '/', ''), gzipSync(mod.code ?? '', { level: 9 }).length); rows.set(c.fileName, m); } } }]
});
await builder.buildApp();
const want = process.argv[2] ?? 'widget-tts';
for (const [f, m] of rows) { if (!f.includes(want)) continue; console.log('==', f); [...m].sort((a, b) => b[1] - a[1]).forEach(([id, n]) => console.log(String(n).padStart(6), id)); }
