/**
 * The words of the public pages, the Help page and the footer, in one place an operator can edit
 * without touching the views (architecture §8); only the footer's own line lives in
 * `footerContent.ts`, because every page shows it. Links and addresses are not here: they come
 * from the server's configuration (README, Configuration), and what is not configured is not shown.
 */
import { footerContent } from './footerContent.ts';

/** A contact line: what to write about, and where. */
export interface ContactLine {
  label: string;
  email: string;
}

/** The contact lines the pages show, by the configured address each one needs. */
export interface ContactLabels {
  research: string;
  support: string;
}

/** One member of the project team, shown by role with an initials avatar. */
export interface TeamMember {
  role: string;
  /** Two or three letters shown in the avatar. */
  initials: string;
  /** Optional; leave out to show the role only. */
  name?: string;
  description: string;
}

/** A section of the About page's team list. */
export interface TeamSection {
  heading: string;
  members: readonly TeamMember[];
}

/** A section of running text: paragraphs, then an optional bullet list. */
export interface TextSection {
  heading: string;
  paragraphs: readonly string[];
  list?: readonly string[];
}

/** An audience the Home page speaks to. */
export interface Audience {
  heading: string;
  text: string;
}

/** A link to a mobile app store listing (its address is configured: `IOS_APP_URL`, `ANDROID_APP_URL`). */
export interface StoreBadge {
  /** The link's accessible name (read by screen readers). */
  label: string;
  store: 'ios' | 'android';
  /** The badge picture, served from the site's `public/` folder. */
  image: string;
}

const contacts = {
  research: 'Questions about the research',
  support: 'Technical support',
} as const satisfies ContactLabels;

const tagline = 'Collect, annotate, review and collaborate around authentic multimedia evidence of instruction.';

export const siteContent = {
  brand: {
    name: 'PracticeFolio',
    tagline,
  },
  contacts,
  home: {
    documentTitle: 'Home',
    intro:
      'PracticeFolio is a professional learning portfolio for teachers. Capture photos, videos and documents from your classroom, describe what they show about your teaching and your students’ thinking, and bring them to your colleagues for discussion.',
    audiencesHeading: 'Who it is for',
    audiences: [
      {
        heading: 'Teachers',
        text: 'Keep personal portfolios of artifacts from your lessons, answer a few reflection questions about each one, and copy a snapshot into a shared portfolio when you want feedback.',
      },
      {
        heading: 'PLC leads',
        text: 'Create shared portfolios for your professional learning community, invite colleagues, and focus the conversation with team questions, comments and reactions.',
      },
      {
        heading: 'Researchers',
        text: 'Read teacher portfolios, follow the work of shared portfolios, and export summaries for the study, without changing what teachers have written.',
      },
    ] as const satisfies readonly Audience[],
    appsHeading: 'Get the mobile apps',
    appsText:
      'Capture evidence where it happens with the free apps for iPad, iPhone and Android devices. Everything you collect appears here, in the web portal, where you can review and organise it.',
    badges: [
      { label: 'Download on the App Store', store: 'ios', image: '/badges/app-store.svg' },
      { label: 'Get it on Google Play', store: 'android', image: '/badges/google-play.svg' },
    ] as const satisfies readonly StoreBadge[],
    loginHeading: 'Already have an account?',
    loginText: 'Sign in to open your portfolio dashboard.',
    loginLabel: 'LOGIN TO YOUR PORTFOLIO',
    signedInHeading: 'Welcome back',
    signedInText: 'Your portfolios, shared portfolios and invitations are on your dashboard.',
    dashboardLabel: 'OPEN YOUR DASHBOARD',
    contactHeading: 'Contact',
  },
  about: {
    title: 'About PracticeFolio',
    intro: [
      'PracticeFolio grew out of a research project on science teaching. Teachers in the project plan and teach lessons aligned to the Next Generation Science Standards (NGSS) and gather evidence of that teaching: student work, lesson materials, photos and short videos from the classroom.',
      'The project studies how teachers use such evidence to reflect on their practice and to learn together in professional learning communities. It is funded by a grant from a national science foundation.',
    ],
    video: {
      heading: 'Watch the introduction',
      title: 'Introduction to PracticeFolio',
      playLabel: 'Play the introduction video',
      notice:
        'The video is played from YouTube in its privacy-enhanced mode. Nothing is loaded from YouTube until you press play.',
    },
    learnMore: {
      text: 'Read more about the project, its publications and its partner schools on the showcase site.',
      label: 'Learn More',
    },
    teamHeading: 'The team',
    teamIntro: 'PracticeFolio is built and studied by a team of researchers, designers, developers and educators.',
    team: [
      {
        heading: 'Leadership',
        members: [
          {
            role: 'Principal Investigator',
            initials: 'PI',
            description: 'Leads the research project and its partnerships with schools.',
          },
          {
            role: 'Co-Principal Investigator',
            initials: 'CP',
            description: 'Co-leads the study design and the work with teachers.',
          },
        ],
      },
      {
        heading: 'Development',
        members: [
          { role: 'Lead Developer', initials: 'LD', description: 'Builds and maintains the web portal and its API.' },
          { role: 'Mobile Developer', initials: 'MD', description: 'Builds the iOS and Android apps.' },
          {
            role: 'Interaction Designer',
            initials: 'ID',
            description: 'Designs the screens with teachers and researchers.',
          },
        ],
      },
      {
        heading: 'Research',
        members: [
          {
            role: 'Postdoctoral Researcher',
            initials: 'PR',
            description: 'Analyses how teachers use evidence of instruction.',
          },
          {
            role: 'Graduate Student Researcher',
            initials: 'GR',
            description: 'Works with professional learning communities in the field.',
          },
          { role: 'Research Coordinator', initials: 'RC', description: 'Looks after participants, consent and data.' },
        ],
      },
      {
        heading: 'Advisory',
        members: [
          {
            role: 'Science Education Advisor',
            initials: 'SE',
            description: 'Advises on NGSS-aligned teaching and learning.',
          },
          {
            role: 'Teacher Advisor',
            initials: 'TA',
            description: 'Brings the classroom view to every design decision.',
          },
          { role: 'Evaluation Advisor', initials: 'EA', description: 'Advises on the evaluation of the project.' },
        ],
      },
    ] as const satisfies readonly TeamSection[],
    contactHeading: 'Contact',
  },
  privacy: {
    title: 'Privacy Policy',
    lastModified: 'Last modified 11/1/21',
    intro:
      'PracticeFolio is run by a research project. This page explains what we store when you use the web portal and the mobile apps, why we store it, who can see it, and how you can have it removed.',
    sections: [
      {
        heading: 'What we collect',
        paragraphs: ['No name is entered at registration. An account holds only what the portal needs to work:'],
        list: [
          'Your account: your e-mail address, a username, your role (teacher, PLC lead or researcher) and a securely hashed password. The username may be a name, but it does not have to be.',
          'Your content: the portfolios and artifacts you create, your answers to the artifact questions, the photos, videos and documents you upload, and the comments and reactions you add in shared portfolios.',
          'Usage statistics: when items are created and changed, how many portfolios, artifacts, comments and reactions there are, and which shared portfolios you belong to. Our server also keeps short technical logs (such as the time and address of a request) to keep the service secure.',
        ],
      },
      {
        heading: 'Why we collect it',
        paragraphs: [
          'We use your account and content to run the portal: to show you your portfolios, to let you work with your colleagues, and to send you the e-mails you ask for, such as invitations and password resets.',
          'PracticeFolio is also part of a research study. Researchers on the project read teacher portfolios and shared portfolios and export summaries of them in order to understand how teachers learn from evidence of their teaching. Findings are published only in aggregate or de-identified form.',
        ],
      },
      {
        heading: 'Who can see what',
        paragraphs: [],
        list: [
          'Your personal portfolios: you, and the project’s researchers (read-only).',
          'A shared portfolio: its members, the person who created it, and the project’s researchers.',
          'An invitation to a shared portfolio: you, and the members of that shared portfolio.',
          'Your uploaded files: only people who can see an artifact that holds them.',
        ],
      },
      {
        heading: 'We do not share your data commercially',
        paragraphs: [
          'We do not sell, rent or trade your data, and we do not share it with advertisers or other commercial parties. The portal has no advertising and no third-party tracking. The only cookie it sets keeps you signed in. The introduction video on the About page is loaded from YouTube only when you choose to play it.',
        ],
      },
      {
        heading: 'How long we keep it',
        paragraphs: [
          'We keep your account and content for as long as your account is open and the research project runs. When the project ends, or when you ask us to, we delete your account and content; research data that has been de-identified may be kept as the study’s ethics approval allows.',
        ],
      },
      {
        heading: 'Your choices',
        paragraphs: [
          'You can ask for a copy of your data, ask us to correct it, or ask us to delete your account and everything in it (see Questions below). We answer within 30 days. Please remember that photos and videos of classrooms should follow your school’s rules on consent; do not upload material you are not allowed to share.',
        ],
      },
    ] as const satisfies readonly TextSection[],
    contactHeading: 'Questions',
    contactText: 'If you have a question about this policy or about the research, write to us:',
    noContactText:
      'If you have a question about this policy or about the research, ask the person who runs PracticeFolio for your school or district.',
  },
  help: {
    title: 'Help',
    intro:
      'A short guide to the portal. The PracticeFolio apps for iPad, iPhone and Android collect evidence in the classroom; everything they upload appears here.',
    sections: [
      {
        heading: 'Logging in',
        paragraphs: [
          'Log in with your e-mail address and password. “Forgot your password?” sends a link that works once, for one hour.',
          'An account created for you, or an invitation to a shared portfolio, arrives with a link to set your password.',
        ],
      },
      {
        heading: 'Your portfolio dashboard',
        paragraphs: [
          'The dashboard lists your portfolios (add one in the first row of the table), the shared portfolios you belong to, and the invitations waiting for you.',
        ],
      },
      {
        heading: 'Artifacts in your portfolios',
        paragraphs: [
          'Choose a portfolio under My Portfolios, then Create New Artifact. Add photos, videos or documents and answer the questions. Save to Parking Lot keeps unfinished work; Submit to Portfolio completes the artifact once the questions marked with an asterisk are answered.',
          'A new artifact is kept once you save it: leaving it before the first save (or Cancel) removes it and its files. If you leave a page with changes that are not saved, the portal asks first.',
          'Filter By, the keyword search and Compare (two artifacts side by side) help you find and review your work. On a phone or a tablet held upright, choosing an artifact opens it in place of the table; Back to artifacts returns to the table.',
        ],
      },
      {
        heading: 'Sharing with your team',
        paragraphs: [
          'COPY TO copies a snapshot of a completed artifact into a shared portfolio. There your team can answer its team questions, comment and react.',
          'PLC leads create shared portfolios, add team questions and invite members by e-mail. If someone else saved an artifact while you were editing it, you are asked before their changes are overwritten.',
        ],
      },
      {
        heading: 'For researchers',
        paragraphs: [
          'Teacher Portfolios shows every teacher’s portfolios read-only; the two Export buttons download CSV summaries. Manage Users in the user menu creates accounts and blocks or unblocks them.',
        ],
      },
    ] as const satisfies readonly TextSection[],
    contactHeading: 'Still stuck?',
    contactText: 'Write to us:',
    noContactText: 'Ask the person who runs PracticeFolio for your school or district.',
  },
  footer: footerContent,
} as const;
