import type { InitConfig } from '@btalk/contracts';
import { createContext, type ReactNode, useContext } from 'react';
import type { GraphClient } from './api/graph.ts';
import type { Api } from './api/index.ts';
import type { SessionStore } from './stores/session.ts';

/** What the whole app is given at start-up (SPEC.md section 1). */
export interface Services {
  config: InitConfig;
  session: SessionStore;
  api: Api;
  /** The cached Graph client, under the name the product gives it. */
  axiosCache: GraphClient;
}

const ServicesContext = createContext<Services | null>(null);

/** Makes the start-up services available to every component. */
export function ServicesProvider({ services, children }: { services: Services; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

/** The start-up services: configuration, session, API and `axiosCache`. */
export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services)
    throw new Error('useServices() is used outside <ServicesProvider>: render the component inside <App>.');
  return services;
}
