import { useSearch } from 'wouter';
import { CoveragePage } from '../../views/pages/CoveragePage.tsx';

const idOf = (value: string | null): number | null => (value && /^[0-9]{1,9}$/.test(value) ? Number(value) : null);

/** `/coverage` (researchers), `?teacher=` or `?shared=` for one teacher's or shared portfolio's map. */
export function CoverageRoute() {
  const query = new URLSearchParams(useSearch());
  return <CoveragePage teacher={idOf(query.get('teacher'))} shared={idOf(query.get('shared'))} />;
}
