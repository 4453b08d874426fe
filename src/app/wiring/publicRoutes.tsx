import { AboutPage } from '../../views/pages/AboutPage.tsx';
import { HelpPage } from '../../views/pages/HelpPage.tsx';
import { HomePage } from '../../views/pages/HomePage.tsx';
import { PrivacyPage } from '../../views/pages/PrivacyPage.tsx';

/** `/home`: visible with or without a session. */
export const HomeRoute = () => <HomePage />;
/** `/about`: visible with or without a session. */
export const AboutRoute = () => <AboutPage />;
/** `/privacy`: visible with or without a session. */
export const PrivacyRoute = () => <PrivacyPage />;
/** `/help`: the portal's own guide, visible with or without a session. */
export const HelpRoute = () => <HelpPage />;
