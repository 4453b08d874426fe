/**
 * The four drawings of the Insights page and the chart library under them: a part the page loads
 * while it asks for its data, so the page's frame, filters, summaries and tables never wait for it.
 */
export { ActivityChart } from './ActivityChart.tsx';
export { AgreementChart } from './AgreementChart.tsx';
export { DiscussionChart } from './DiscussionChart.tsx';
export { LevelsChart } from './LevelsChart.tsx';
