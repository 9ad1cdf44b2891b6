// Which webhook endpoint URLs the simulated service accepts (docs/upstream.md, webhooks: public
// `https://` only, private and internal addresses refused), and the simulator's relaxation that
// delivers an accepted URL to the local address serving it (docs/simulator.md, webhooks).
import { BlockList, isIP } from 'node:net';

const PRIVATE = new BlockList();
for (const [net, bits] of [
	['0.0.0.0', 8],
	['10.0.0.0', 8],
	['100.64.0.0', 10],
	['127.0.0.0', 8],
	['169.254.0.0', 16],
	['172.16.0.0', 12],
	['192.168.0.0', 16],
	['224.0.0.0', 3]
] as const)
	PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
	['::', 127],
	['fc00::', 7],
	['fe80::', 10],
	['ff00::', 8]
] as const)
	PRIVATE.addSubnet(net, bits, 'ipv6');

const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.lan', '.home.arpa', '.intranet'];

/** Why `text` is no public https URL, or null when it is one. */
export function refusedWebhookUrl(text: string): string | null {
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return 'url is not a URL';
	}
	if (url.protocol !== 'https:') return 'url must be https://';
	if (url.username || url.password) return 'url must not carry credentials';
	const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
	const family = isIP(host);
	if (family) {
		const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host)?.[1];
		const blocked = mapped
			? PRIVATE.check(mapped, 'ipv4')
			: PRIVATE.check(host, family === 4 ? 'ipv4' : 'ipv6');
		return blocked ? 'url is a private or internal address' : null;
	}
	if (
		host === 'localhost' ||
		!host.includes('.') ||
		INTERNAL_SUFFIXES.some((s) => host.endsWith(s))
	)
		return 'url is a private or internal address';
	return null;
}

/**
 * Where a delivery to `url` goes: the local origin a test or the demo mapped its origin to
 * (`https://kit.example.com` → `http://127.0.0.1:8787`), else the URL itself.
 */
export function deliveryTarget(url: string, targets: ReadonlyMap<string, string>): string {
	const parsed = new URL(url);
	const local = targets.get(parsed.origin);
	return local ? local + parsed.pathname + parsed.search : url;
}
