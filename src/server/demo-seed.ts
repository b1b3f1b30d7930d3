// Seeds the demo (owner, key, face, PALs, deployments) for `npm start`. Filled in by the demo work.
import type { Service } from './service.js';

export async function seedDemo(_service: Service, url: string): Promise<void> {
  console.log(`palkit demo: nothing to seed yet; API reference at ${url}/docs`);
}
