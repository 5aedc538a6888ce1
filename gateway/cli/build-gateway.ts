/** `npm run build` (after the app's Vite build): the gateway bundle under build/gateway (gateway-bundle.ts). */
import { bundleGateway, GATEWAY_BUILD_DIR } from './gateway-bundle';

await bundleGateway(GATEWAY_BUILD_DIR);
