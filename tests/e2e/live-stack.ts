// Where the live-mode scene runs (live.config.ts starts it, scene.live.spec.ts uses it): the
// simulator as its own process (`npm run sim`), standing in for the real upstream, and the token
// endpoint in live mode in front of it (`npm start` with TIP_API_KEY, TIP_API_BASE_URL and
// TIP_WS_URL set, docs/configuration.md), each on a port of its own.
import { DEMO_API_KEY } from '../../src/sim/auth.ts';

const port = Number(process.env.E2E_PORT ?? 4273);
const simPort = Number(process.env.E2E_SIM_PORT ?? port + 1);

export const LIVE = {
	port,
	simPort,
	origin: `http://127.0.0.1:${port}`,
	simOrigin: `http://127.0.0.1:${simPort}`,
	/** The key the simulator accepts (its default, every scope) and the endpoint holds. */
	apiKey: DEMO_API_KEY,
	keys: { overlay: 'e2e_live_overlay_key_0123456789', control: 'e2e_live_control_key_0123456789' }
};
