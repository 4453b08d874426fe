import type { Me } from '../../../src/schemas/user.ts';
import { USER_ABILITIES } from '../../../src/test/abilityFixtures.ts';

const role = {
  teacher: { id: 1, name: 'Teacher', description: 'Teacher', type: 'authenticated' },
  plcLead: { id: 3, name: 'PLC Lead', description: 'PLC Lead', type: 'plc_lead' },
  researcher: { id: 4, name: 'Researcher', description: 'Researcher', type: 'researcher' },
} as const;

/** A user as the API returns it. */
export function makeUser(kind: keyof typeof role = 'teacher', overrides: Partial<Me> = {}): Me {
  const id = overrides.id ?? Math.floor(Math.random() * 100000) + 10;
  return {
    id,
    username: kind === 'researcher' ? 'Rita Researcher' : kind === 'plcLead' ? 'Lee Lead' : 'Tess Teacher',
    email: `user${id}@example.org`,
    provider: 'local',
    confirmed: true,
    blocked: false,
    role: role[kind],
    abilities: USER_ABILITIES[kind],
    created_at: '2026-01-01T10:00:00.000Z',
    updated_at: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}
