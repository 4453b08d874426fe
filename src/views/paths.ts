/** Route patterns of the SPA (spec §2) and builders for links to them. */
export const paths = {
  root: '/',
  home: '/home',
  about: '/about',
  privacy: '/privacy',
  help: '/help',
  login: '/login',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password/:code',
  /** `/images` + a file's `url` (`/uploads/<capability>/<file>`), as the mobile apps build it (they add `.html`). */
  imageViewer: '/images/uploads/*',
  videoViewer: '/videos/uploads/*',
  dashboard: '/dashboard',
  myPortfolios: '/my-portfolios',
  myPortfolio: '/my-portfolios/:id',
  myPortfolioEdit: '/my-portfolios/:id/edit',
  myArtifact: '/my-portfolios/:id/artifacts/:artifactId',
  myArtifactEdit: '/my-portfolios/:id/artifacts/:artifactId/edit',
  myArtifactCopy: '/my-portfolios/:id/artifacts/:artifactId/copy',
  teacherPortfolios: '/teacher-portfolios',
  sharedPortfolios: '/shared-portfolios',
  sharedPortfolioNew: '/shared-portfolios/new',
  sharedPortfolio: '/shared-portfolios/:id',
  sharedPortfolioEdit: '/shared-portfolios/:id/edit',
  sharedArtifact: '/shared-portfolios/:id/artifacts/:artifactId',
  sharedArtifactEdit: '/shared-portfolios/:id/artifacts/:artifactId/edit',
  sharedArtifactCopy: '/shared-portfolios/:id/artifacts/:artifactId/copy',
  invitation: '/invitation/:id',
  users: '/users',
  researchExport: '/research-export',
  /** Charts for researchers and the leads of shared portfolios. */
  insights: '/insights',
  /** The installation-wide rubrics (researchers). */
  rubrics: '/rubrics',
  /** Standards coverage (researchers): `?teacher=` or `?shared=` for one teacher's or shared portfolio's map. */
  coverage: '/coverage',
  notifications: '/notifications',
  notificationSettings: '/settings/notifications',
  /** A password for the mobile apps (people who sign in here with a school account). */
  appPassword: '/settings/app-password',
  /** `?token=`: the signed link of every notification e-mail (no session needed). */
  unsubscribe: '/unsubscribe',
} as const;

/** Fills a pattern's `:params`. */
export function buildPath(pattern: string, params: Record<string, string | number>): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing route parameter ${name} for ${pattern}`);
    return encodeURIComponent(String(value));
  });
}
