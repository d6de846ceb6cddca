import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';

/**
 * Whether this instance is being stopped. Once draining, `GET /api/ready` answers 503 (load balancers
 * and probes stop sending it traffic) and every response closes its connection (`Connection: close`),
 * so a proxy's kept-alive connections to it end one by one instead of being cut under a request.
 */
export class Lifecycle {
  #draining = false;

  /** True from the stop signal on. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Marks the instance as stopping; there is no way back. */
  drain(): void {
    this.#draining = true;
  }
}

/** A background job of the instance that finishes its current run when stopped. */
export interface StoppableWorker {
  stop(): Promise<void>;
}

/** What a graceful stop needs. */
export interface ShutdownOptions {
  app: FastifyInstance;
  lifecycle: Lifecycle;
  /** The periodic workers (notifications, escalations, clean-up, directory sync). */
  workers: StoppableWorker[];
  /** How long the instance keeps serving, not ready, before it stops accepting (SHUTDOWN_DRAIN_SECONDS). */
  drainMs: number;
}

/** How often connections that finished their last request are closed while the server closes. */
const IDLE_SWEEP_MS = 100;

/**
 * The graceful stop after SIGTERM (main.ts; the caller holds the deadline). In order:
 * 1. not ready: `/api/ready` answers 503 and responses close their connections;
 * 2. the drain: for `drainMs` the instance still serves (a load balancer polling ready notices),
 *    while the workers finish their current run and stop (other instances take their rows);
 * 3. `app.close()`: new requests get 503, realtime sockets close with 1001 "going away" (the client
 *    reconnects, through the load balancer to another instance, and resumes), the listener closes,
 *    requests in flight finish, then the Redis links and the database close (onClose hooks).
 * Node's `server.close()` closes only the connections idle at that moment; one whose request
 * finishes later would stay open for the keep-alive timeout, so idle ones are swept until done.
 */
export async function shutDown(options: ShutdownOptions): Promise<void> {
  const { app, lifecycle } = options;
  lifecycle.drain();
  await Promise.all([sleep(options.drainMs), ...options.workers.map((worker) => worker.stop())]);
  const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}
