import type { StateCreator } from 'zustand';
import { ADMIN_IDENTITY, type Identity } from '../api/identity';
import type { AppState } from './index';

export interface IdentitySlice {
  identities: Identity[];
  currentIdentityId: string;
  /** Adds or replaces (same id) an identity. */
  upsertIdentity(identity: Identity): void;
  removeIdentity(id: string): void;
  selectIdentity(id: string): void;
  /**
   * The administrator of the cluster's configuration (a static token user in
   * system:masters), or none in the open set-up (requests then carry no
   * credentials). Called at start and whenever the configuration changes.
   */
  setAdministrator(admin: { user: string; token: string } | undefined): void;
}

export const createIdentitySlice: StateCreator<AppState, [], [], IdentitySlice> = (set) => ({
  identities: [ADMIN_IDENTITY],
  currentIdentityId: ADMIN_IDENTITY.id,
  upsertIdentity: (identity) =>
    set((state) => ({ identities: [...state.identities.filter((i) => i.id !== identity.id), identity] })),
  removeIdentity: (id) =>
    set((state) => {
      // The administrator stays: it is how the app gets back in.
      if (id === ADMIN_IDENTITY.id) return state;
      const identities = state.identities.filter((i) => i.id !== id);
      return { identities, currentIdentityId: state.currentIdentityId === id ? ADMIN_IDENTITY.id : state.currentIdentityId };
    }),
  selectIdentity: (id) => set((state) => (state.identities.some((i) => i.id === id) ? { currentIdentityId: id } : state)),
  setAdministrator: (admin) =>
    set((state) => {
      const identity: Identity = admin ? { ...ADMIN_IDENTITY, label: admin.user, token: admin.token } : ADMIN_IDENTITY;
      return { identities: [identity, ...state.identities.filter((i) => i.id !== ADMIN_IDENTITY.id)] };
    }),
});

/** The identity requests are sent as now (outside React). */
export function currentIdentity(state: Pick<IdentitySlice, 'identities' | 'currentIdentityId'>): Identity {
  return state.identities.find((i) => i.id === state.currentIdentityId) ?? ADMIN_IDENTITY;
}
