import { startServer } from './server.ts';

/** Starts one BTalk server for the whole run; tests reach it through BTALK_E2E_URL. */
export default async function globalSetup() {
  const server = await startServer();
  process.env.BTALK_E2E_URL = server.url;
  process.env.BTALK_E2E_DATA_DIR = server.dataDir;
  return () => server.stop();
}
