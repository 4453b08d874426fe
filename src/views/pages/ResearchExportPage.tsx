import type { FormEvent } from 'react';
import styled from 'styled-components';
import {
  useExportDownloads,
  useExportDraft,
  useExportLog,
  useExportLogError,
  useExportLogRefreshing,
  useExportProblems,
  useExportSharedPortfolios,
  useExportTeachers,
  useResearchExportError,
  useResearchExportEvents,
  useResearchExportStatus,
} from '../../machines/researchExport/useResearchExport.ts';
import { CONSENT_STATEMENT, type ResearchExportRecord } from '../../schemas/researchExport.ts';
import { Button } from '../components/Button.tsx';
import { Checkbox, Fieldset } from '../components/Checkbox.tsx';
import { DataTable, type DataColumn } from '../components/DataTable.tsx';
import { TextField } from '../components/Field.tsx';
import { MultiSelect } from '../components/MultiSelect.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { formatDateTime } from '../../schemas/formatting.ts';
import { theme } from '../theme/theme.ts';

/** What anyone but a researcher sees. */
export const ONLY_RESEARCHERS_EXPORT_MESSAGE = 'Only researchers can export research data.';
export const DOWNLOAD_STARTED_MESSAGE = 'Your download has started. The package is recorded in the export log below.';

const Intro = styled.p`
  max-width: 70ch;
  color: ${theme.color.textMuted};
`;

const Form = styled.form`
  padding: ${theme.space.lg};
  margin-bottom: ${theme.space.xl};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
`;

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(220px, 1fr));
  gap: 0 ${theme.space.lg};
`;

const Radio = styled.label`
  display: flex;
  align-items: flex-start;
  gap: ${theme.space.sm};
  padding: ${theme.space.xxs} 0;
  cursor: pointer;
  input {
    width: 18px;
    height: 18px;
    margin: 3px 0 0;
    accent-color: ${theme.color.primary};
  }
  small {
    display: block;
    color: ${theme.color.textMuted};
  }
`;

const Consent = styled.div`
  margin-top: ${theme.space.sm};
  padding: ${theme.space.sm} ${theme.space.md};
  border-left: 4px solid ${theme.color.warning};
  background: ${theme.color.surfaceAlt};
`;

const Error = styled.p`
  margin: ${theme.space.xs} 0 0;
  color: ${theme.color.danger};
  font-size: ${theme.font.size.sm};
`;

const Actions = styled.div`
  display: flex;
  align-items: center;
  flex-wrap: wrap;
  gap: ${theme.space.md};
  p {
    margin: 0;
  }
`;

const LogHeading = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  flex-wrap: wrap;
  gap: ${theme.space.md};
  margin-bottom: ${theme.space.md};
  h2 {
    margin: 0;
    font-size: ${theme.font.size.lg};
  }
`;

const Problem = styled.div`
  padding: ${theme.space.lg};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-left: 6px solid ${theme.color.danger};
  border-radius: ${theme.radius.md};
  h2 {
    font-size: ${theme.font.size.lg};
  }
  p {
    margin: 0 0 ${theme.space.md};
  }
`;

const LOG_COLUMNS: readonly DataColumn[] = [
  { id: 'started', header: 'Started', width: '11rem' },
  { id: 'researcher', header: 'Researcher', width: '12rem' },
  { id: 'filters', header: 'Filters' },
  { id: 'identities', header: 'Identities', width: '8rem' },
  { id: 'status', header: 'Status', width: '7rem' },
  { id: 'rows', header: 'Rows', width: '6rem', align: 'end' },
];

const STATUS_WORDS: Record<ResearchExportRecord['status'], string> = {
  running: 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The filters of a log entry in words. */
function filtersText(record: ResearchExportRecord, sharedNames: ReadonlyMap<number, string>): string {
  const p = record.parameters;
  const parts: string[] = [];
  if (p.from || p.to) parts.push(`created ${p.from ?? 'any date'} to ${p.to ?? 'any date'}`);
  if (p.sharedPortfolios?.length)
    parts.push(p.sharedPortfolios.map((id) => sharedNames.get(id) ?? `shared portfolio ${id}`).join(', '));
  if (p.teachers?.length) parts.push(plural(p.teachers.length, 'teacher'));
  return parts.length > 0 ? parts.join('; ') : 'Everything';
}

function LogTable() {
  const log = useExportLog();
  const refreshing = useExportLogRefreshing();
  const logError = useExportLogError();
  const sharedPortfolios = useExportSharedPortfolios();
  const { refreshLog } = useResearchExportEvents();
  const sharedNames = new Map(sharedPortfolios.map((sp) => [sp.id, sp.name]));
  return (
    <section aria-labelledby="export-log-heading">
      <LogHeading>
        <h2 id="export-log-heading">Export log</h2>
        <Button type="button" $variant="secondary" $small disabled={refreshing} onClick={refreshLog}>
          {refreshing ? 'Refreshing…' : 'Refresh'}
        </Button>
      </LogHeading>
      {logError ? <Error role="alert">The log could not be refreshed: {logError.message}</Error> : null}
      <DataTable caption="Export log" columns={LOG_COLUMNS} isEmpty={log.length === 0} empty="No research export yet.">
        {log.map((record) => (
          <tr key={record.id}>
            <td>{formatDateTime(record.started_at)}</td>
            <td>{record.researcher.username}</td>
            <td>{filtersText(record, sharedNames)}</td>
            <td>{record.parameters.identities === 'included' ? 'Included' : 'Pseudonymous'}</td>
            <td>{STATUS_WORDS[record.status]}</td>
            <td data-align="end">
              {Object.values(record.rowCounts)
                .reduce((a, b) => a + b, 0)
                .toLocaleString('en-US')}
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

function ExportForm() {
  const draft = useExportDraft();
  const problems = useExportProblems();
  const teachers = useExportTeachers();
  const sharedPortfolios = useExportSharedPortfolios();
  const downloads = useExportDownloads();
  const { change, download } = useResearchExportEvents();

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    download();
  };

  return (
    <Form aria-label="Research export filters" noValidate onSubmit={handleSubmit}>
      <Grid>
        <TextField
          label="Created from"
          type="date"
          value={draft.from}
          error={problems.from}
          onChange={(e) => change({ from: e.target.value })}
        />
        <TextField
          label="Created to"
          type="date"
          value={draft.to}
          error={problems.to}
          onChange={(e) => change({ to: e.target.value })}
        />
      </Grid>
      <Grid>
        <MultiSelect
          label="Shared portfolios"
          placeholder="All shared portfolios"
          options={sharedPortfolios.map((sp) => ({ value: String(sp.id), label: sp.name }))}
          value={draft.sharedPortfolios.map(String)}
          error={problems.sharedPortfolios}
          onChange={(values) => change({ sharedPortfolios: values.map(Number) })}
        />
        <MultiSelect
          label="Teachers"
          placeholder="All teachers and PLC leads"
          options={teachers.map((t) => ({ value: String(t.id), label: t.label }))}
          value={draft.teachers.map(String)}
          error={problems.teachers}
          onChange={(values) => change({ teachers: values.map(Number) })}
        />
      </Grid>
      <Fieldset $invalid={Boolean(problems.consentConfirmed)}>
        <legend>Identities</legend>
        <Radio>
          <input
            type="radio"
            name="identities"
            checked={draft.identities === 'pseudonymous'}
            onChange={() => change({ identities: 'pseudonymous' })}
          />
          <span>
            Pseudonymous
            <small>
              Each person is a stable pseudonym; names, user names and e-mail addresses are removed from every text.
            </small>
          </span>
        </Radio>
        <Radio>
          <input
            type="radio"
            name="identities"
            checked={draft.identities === 'included'}
            onChange={() => change({ identities: 'included' })}
          />
          <span>
            Include identities
            <small>Names and e-mail addresses, for studies whose participants consented to being identified.</small>
          </span>
        </Radio>
        {draft.identities === 'included' ? (
          <Consent>
            <Checkbox
              label={CONSENT_STATEMENT}
              checked={draft.consentConfirmed}
              aria-invalid={problems.consentConfirmed ? true : undefined}
              onChange={(e) => change({ consentConfirmed: e.target.checked })}
            />
            {problems.consentConfirmed ? <Error>{problems.consentConfirmed}</Error> : null}
          </Consent>
        ) : null}
      </Fieldset>
      <Actions>
        <Button type="submit">Download package</Button>
        {downloads > 0 ? <p role="status">{DOWNLOAD_STARTED_MESSAGE}</p> : null}
      </Actions>
    </Form>
  );
}

function LoadFailed() {
  const error = useResearchExportError();
  const { retry } = useResearchExportEvents();
  return (
    <Problem role="alert">
      <h2>The export page could not be loaded</h2>
      <p>{error?.message ?? 'Something went wrong. Please try again.'}</p>
      <Button type="button" onClick={retry}>
        Try again
      </Button>
    </Problem>
  );
}

/**
 * Research Export (researchers): the package's filters and identities option, its download,
 * and the log of every export. Anyone else is told that only researchers can export.
 */
export function ResearchExportPage() {
  const status = useResearchExportStatus();
  return (
    <>
      <PageHeading title="Research Export" />
      {status === 'denied' ? (
        <p>{ONLY_RESEARCHERS_EXPORT_MESSAGE}</p>
      ) : (
        <>
          <Intro>
            One ZIP file with long-format CSV files (teachers, portfolios, artifacts, answers, shared portfolios, shared
            artifacts, comments with their video moments, reactions, memberships), a codebook and a README. Times are in
            UTC. Every export is recorded in the log below.
          </Intro>
          {status === 'loadFailed' ? <LoadFailed /> : null}
          {status === 'loading' ? (
            <p role="status" aria-label="Loading the export options">
              Loading…
            </p>
          ) : null}
          {status === 'ready' ? (
            <>
              <ExportForm />
              <LogTable />
            </>
          ) : null}
        </>
      )}
    </>
  );
}
