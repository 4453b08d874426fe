import { Link } from 'wouter';
import { PageHeading } from '../components/PageHeading.tsx';
import { paths } from '../paths.ts';

/** Any address the portal does not know. */
export function NotFoundPage() {
  return (
    <>
      <PageHeading title="Page not found" />
      <p>There is no page at this address. It may have moved, or the link may be mistyped.</p>
      <p>
        <Link href={paths.root}>Go to the start page</Link>
      </p>
    </>
  );
}
