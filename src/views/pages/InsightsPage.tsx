import type { FormEvent } from 'react';
import styled from 'styled-components';
import {
  useFileState,
  useInsightsData,
  useInsightsDraft,
  useInsightsError,
  useInsightsEvents,
  useInsightsProblem,
  useInsightsStatus,
} from '../../machines/insights/useInsights.ts';
import type { ChartId } from '../../machines/insights/selectors.ts';
import type { Insights } from '../../schemas/insights.ts';
import { Button } from '../components/Button.tsx';
import { TextField } from '../components/Field.tsx';
import { InsightsNav } from '../components/InsightsNav.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { SelectField } from '../components/SelectField.tsx';
import { lazyPart } from '../components/lazyParts.tsx';
import { ChartPanel } from '../insights/ChartPanel.tsx';
import type { ChartProps } from '../insights/chartProps.ts';
import { theme } from '../theme/theme.ts';

/** What a teacher who leads no shared portfolio sees. */
export const INSIGHTS_DENIED_MESSAGE = 'Charts are for researchers and for the leads of shared portfolios.';

const Intro = styled.p`
  max-width: 75ch;
  color: ${theme.color.textMuted};
`;

const Filters = styled.form`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(200px, 1fr));
  align-items: end;
  gap: 0 ${theme.space.lg};
  padding: ${theme.space.lg} ${theme.space.lg} ${theme.space.sm};
  margin-bottom: ${theme.space.lg};
  background: ${theme.color.surface};
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.md};
  @media ${theme.media.phone} {
    padding: ${theme.space.md} ${theme.space.md} ${theme.space.xs};
  }
  > button {
    margin-bottom: ${theme.space.md};
    justify-self: start;
  }
`;

const Problem = styled.p`
  color: ${theme.color.danger};
`;

const ChartPending = styled.p`
  min-height: 200px;
  margin: 0;
  color: ${theme.color.textMuted};
`;

// The drawings and the chart library load as a part of their own (decision 057).
const charts = () => import('../insights/charts.ts');
const pending = <ChartPending>Drawing the chart…</ChartPending>;
const ActivityChart = lazyPart(charts, 'ActivityChart', pending);
const AgreementChart = lazyPart(charts, 'AgreementChart', pending);
const DiscussionChart = lazyPart(charts, 'DiscussionChart', pending);
const LevelsChart = lazyPart(charts, 'LevelsChart', pending);

const CHARTS: { id: ChartId; Chart: (props: ChartProps) => React.JSX.Element }[] = [
  { id: 'activity', Chart: ActivityChart },
  { id: 'discussion', Chart: DiscussionChart },
  { id: 'levels', Chart: LevelsChart },
  { id: 'agreement', Chart: AgreementChart },
];

function FilterForm({ data }: { data: Insights }) {
  const draft = useInsightsDraft();
  const problem = useInsightsProblem();
  const { change, apply } = useInsightsEvents();
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    apply();
  };
  return (
    <Filters aria-label="Chart filters" noValidate onSubmit={handleSubmit}>
      <SelectField
        label="Shared portfolio"
        placeholder={data.scope === 'installation' || data.portfolios.length > 1 ? 'All' : 'All of mine'}
        options={data.portfolios.map((p) => ({ value: String(p.id), label: p.name }))}
        value={draft.sharedPortfolio === null ? '' : String(draft.sharedPortfolio)}
        onChange={(e) => change({ sharedPortfolio: e.target.value === '' ? null : Number(e.target.value) })}
      />
      <TextField label="From" type="date" value={draft.from} onChange={(e) => change({ from: e.target.value })} />
      <TextField
        label="To"
        type="date"
        value={draft.to}
        error={problem}
        onChange={(e) => change({ to: e.target.value })}
      />
      <Button type="submit">Show</Button>
    </Filters>
  );
}

function FileStatus() {
  const { saving, saved, error } = useFileState();
  return (
    <p role="status" className={saving || saved || error ? undefined : 'visually-hidden'}>
      {saving ? 'Preparing the file…' : null}
      {!saving && saved ? `Downloaded ${saved}.` : null}
      {!saving && error ? `The file could not be made: ${error.message}` : null}
    </p>
  );
}

function Charts() {
  const data = useInsightsData()!;
  const { saving } = useFileState();
  return (
    <>
      <FilterForm data={data} />
      <FileStatus />
      {CHARTS.map(({ id, Chart }) => (
        <ChartPanel key={id} chart={id} data={data} Chart={Chart} busy={saving} />
      ))}
    </>
  );
}

function LoadProblem() {
  const error = useInsightsError();
  const { retry } = useInsightsEvents();
  return (
    <div role="alert">
      <h2>The charts could not be loaded</h2>
      <Problem>{error?.message ?? 'Something went wrong. Please try again.'}</Problem>
      <Button type="button" onClick={retry}>
        Try again
      </Button>
    </div>
  );
}

/**
 * Insights (researchers: the installation; the leads of shared portfolios: theirs): activity per
 * week, discussion per shared portfolio, rubric levels per criterion and inter-rater agreement,
 * each with a data table, a text summary and its downloads.
 */
export function InsightsPage() {
  const status = useInsightsStatus();
  return (
    <>
      <PageHeading title="Insights" />
      <InsightsNav />
      {status === 'denied' ? (
        <p>{INSIGHTS_DENIED_MESSAGE}</p>
      ) : (
        <>
          <Intro>
            What was shared, discussed and scored, week by week and per shared portfolio; how rubric levels were given;
            and how far two people scoring the same moment agree (Cohen’s kappa). Every chart has a data table with the
            same numbers and downloads as SVG, PNG and CSV. Weeks start on Monday (UTC).
          </Intro>
          {status === 'loadFailed' ? <LoadProblem /> : null}
          {status === 'loading' ? (
            <p role="status" aria-label="Loading the charts">
              Loading…
            </p>
          ) : null}
          {status === 'ready' ? <Charts /> : null}
        </>
      )}
    </>
  );
}
