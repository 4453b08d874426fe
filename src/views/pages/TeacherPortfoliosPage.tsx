import { PortfolioBrowserActorContext, useBrowserEvents } from '../../machines/portfolioBrowser/usePortfolioBrowser.ts';
import type { portfolioBrowserMachine } from '../../machines/portfolioBrowser/portfolioBrowserMachine.ts';
import {
  useSelectedTeacherId,
  useTeacherPickerError,
  useTeacherPickerEvents,
  useTeacherPickerStatus,
  useTeachers,
} from '../../machines/teacherPicker/useTeacherPicker.ts';
import { ButtonLink } from '../components/Button.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { Hint, Problem } from '../portfolios/Notices.tsx';
import { Controls, PortfolioBrowser } from '../portfolios/PortfolioBrowser.tsx';
import { useRouteSync } from '../portfolios/useRouteSync.ts';

/** The name the teacher portfolios CSV is saved under (spec §7). */
export const TEACHER_EXPORT_FILE = 'teacher portfolios.csv';

/** What anyone but a researcher sees on Teacher Portfolios. */
export const ONLY_RESEARCHERS_TEACHER_PORTFOLIOS = 'Only researchers can view teacher portfolios.';

/** Select Teacher: teachers and PLC leads as 'Last, First', sorted by that label. */
function TeacherSelect() {
  const status = useTeacherPickerStatus();
  const teachers = useTeachers();
  const selected = useSelectedTeacherId();
  const { select } = useTeacherPickerEvents();
  return (
    <SelectField
      label="Select Teacher"
      placeholder={status === 'loading' ? 'Loading teachers…' : 'Select a teacher'}
      disabled={status !== 'ready'}
      options={teachers.map((t) => ({ value: String(t.id), label: t.label }))}
      value={selected === null ? '' : String(selected)}
      onChange={(event) => {
        if (event.target.value) select(Number(event.target.value));
      }}
    />
  );
}

/** The browser for one teacher; it follows the portfolio and artifact of the address. */
function TeacherBrowser({ portfolioId, artifactId }: { portfolioId: number | null; artifactId: number | null }) {
  const { routeChanged } = useBrowserEvents();
  useRouteSync([portfolioId, artifactId] as const, routeChanged);
  return <PortfolioBrowser leading={<TeacherSelect />} />;
}

/**
 * Teacher Portfolios (researchers): 'Export portfolios summary', Select Teacher and Select
 * Portfolio, then the same filters, search, summary, table and compare mode as My Portfolios,
 * everything read-only. The address holds the teacher, portfolio and artifact
 * (`?teacher=7&portfolio=12&artifact=40`), so reloading and Back keep the place.
 */
export function TeacherPortfoliosPage({
  teacherId,
  portfolioId,
  artifactId,
  exportUrl,
  browserLogic,
}: {
  /** The teacher in the address. */
  teacherId: number | null;
  /** The portfolio in the address. */
  portfolioId: number | null;
  /** The artifact in the address. */
  artifactId: number | null;
  /** Where the summary CSV downloads from. */
  exportUrl: string;
  /** The browser logic, provided by the app for the chosen teacher. */
  browserLogic: typeof portfolioBrowserMachine;
}) {
  const status = useTeacherPickerStatus();
  const error = useTeacherPickerError();
  const selected = useSelectedTeacherId();
  const { routeChanged, retry } = useTeacherPickerEvents();
  useRouteSync([teacherId] as const, routeChanged);
  return (
    <>
      <PageHeading title="Teacher Portfolios">
        <ButtonLink href={exportUrl} download={TEACHER_EXPORT_FILE} $variant="secondary">
          Export portfolios summary
        </ButtonLink>
      </PageHeading>
      {status === 'loadFailed' ? (
        <Problem title="The teachers could not be loaded" message={error?.message} onRetry={retry} />
      ) : null}
      {selected === null ? (
        <>
          <Controls>
            <TeacherSelect />
          </Controls>
          {status === 'ready' ? <Hint>Choose a teacher, then one of their portfolios.</Hint> : null}
        </>
      ) : (
        <PortfolioBrowserActorContext.Provider
          key={selected}
          logic={browserLogic}
          options={{
            input: {
              mode: 'researcher',
              owner: selected,
              portfolioId: selected === teacherId ? portfolioId : null,
              artifactId: selected === teacherId ? artifactId : null,
            },
          }}
        >
          <TeacherBrowser portfolioId={portfolioId} artifactId={artifactId} />
        </PortfolioBrowserActorContext.Provider>
      )}
    </>
  );
}

/** Teacher Portfolios for anyone but a researcher. */
export function TeacherPortfoliosDenied() {
  return (
    <>
      <PageHeading title="Teacher Portfolios" />
      <p>{ONLY_RESEARCHERS_TEACHER_PORTFOLIOS}</p>
    </>
  );
}
