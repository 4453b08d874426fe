import { RubricsPage } from '../../views/pages/RubricsPage.tsx';

/** `/rubrics`: the installation's rubrics; its editor's actor lives with the page. */
export function RubricsRoute() {
  return <RubricsPage />;
}
