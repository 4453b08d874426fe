/**
 * The NGSS standards panels of the `expansionPanelChoices` question (reference §10.3, web labels).
 * A response stores the full label of every ticked item.
 */
export interface StandardsSection {
  heading: string;
  items: readonly string[];
}
export interface StandardsPanel {
  panel: string;
  sections: readonly StandardsSection[];
}

const flat = (panel: string, items: readonly string[]): StandardsPanel => ({
  panel,
  sections: [{ heading: '', items }],
});

export const STANDARDS_PANELS: readonly StandardsPanel[] = [
  flat('Practices for K-12 Science Classrooms', [
    'Asking questions (for science) and defining problems (for engineering)',
    'Developing and using models',
    'Planning and carrying out investigations',
    'Analyzing and interpreting data',
    'Using mathematics, information and computer technology, and computational thinking',
    'Constructing explanations (for science) and designing solutions (for engineering)',
    'Engaging in argument from evidence',
    'Obtaining, evaluating, and communicating information',
  ]),
  flat('Crosscutting Concepts', [
    'Patterns',
    'Cause and Effect',
    'Scale, Proportion, and Quantity',
    'Systems and System Models',
    'Energy and Matter',
    'Structure and Function',
    'Stability and Change',
  ]),
  {
    panel: 'Core Ideas in Physical Sciences',
    sections: [
      {
        heading: 'Core Idea PS1: Matter and Its Interactions',
        items: ['PS1.A: Structure and Properties of Matter', 'PS1.B: Chemical Reactions', 'PS1.C: Nuclear Processes'],
      },
      {
        heading: 'Core Idea PS2: Motion and Stability: Forces and Interactions',
        items: [
          'PS2.A: Forces and Motion',
          'PS2.B: Types of Interactions',
          'PS2.C: Stability and Instability in Physical Systems',
        ],
      },
      {
        heading: 'Core Idea PS3: Energy',
        items: [
          'PS3.A: Definitions of Energy',
          'PS3.B: Conservation of Energy and Energy Transfer',
          'PS3.C: Relationship Between Energy and Forces',
          'PS3.D: Energy in Chemical Processes and Everyday Life',
        ],
      },
      {
        heading: 'Core Idea PS4: Waves and Their Applications in Technologies for Information Transfer',
        items: [
          'PS4.A: Wave Properties',
          'PS4.B: Electromagnetic Radiation',
          'PS4.C: Information Technologies and Instrumentation',
        ],
      },
    ],
  },
  {
    panel: 'Core Ideas in Life Sciences',
    sections: [
      {
        heading: 'Core Idea LS1: From Molecules to Organisms: Structures and Processes',
        items: [
          'LS1.A: Structure and Function',
          'LS1.B: Growth and Development of Organisms',
          'LS1.C: Organization for Matter and Energy Flow in Organisms',
          'LS1.D: Information Processing',
        ],
      },
      {
        heading: 'Core Idea LS2: Ecosystems: Interactions, Energy, and Dynamics',
        items: [
          'LS2.A: Interdependent Relationships in Ecosystems',
          'LS2.B: Cycles of Matter and Energy Transfer in Ecosystems',
          'LS2.C: Ecosystem Dynamics, Functioning, and Resilience',
          'LS2.D: Social Interactions and Group Behavior',
        ],
      },
      {
        heading: 'Core Idea LS3: Heredity: Inheritance and Variation of Traits',
        items: ['LS3.A: Inheritance of Traits', 'LS3.B: Variation of Traits'],
      },
      {
        heading: 'Core Idea LS4: Biological Evolution: Unity and Diversity',
        items: [
          'LS4.A: Evidence of Common Ancestry and Diversity',
          'LS4.B: Natural Selection',
          'LS4.C: Adaptation',
          'LS4.D: Biodiversity and Humans',
        ],
      },
    ],
  },
  {
    panel: 'Core Ideas in Earth and Space Science',
    sections: [
      {
        heading: "Core Idea ESS1: Earth's Place in the Universe",
        items: [
          'ESS1.A: The Universe and Its Stars',
          'ESS1.B: Earth and the Solar System',
          'ESS1.C: The History of Planet Earth',
        ],
      },
      {
        heading: "Core Idea ESS2: Earth's Systems",
        items: [
          'ESS2.A: Earth Materials and Systems',
          'ESS2.B: Plate Tectonics and Large-Scale System Interactions',
          "ESS2.C: The Roles of Water in Earth's Surface Processes",
          'ESS2.D: Weather and Climate',
          'ESS2.E: Biogeology',
        ],
      },
      {
        heading: 'Core Idea ESS3: Earth and Human Activity',
        items: [
          'ESS3.A: Natural Resources',
          'ESS3.B: Natural Hazards',
          'ESS3.C: Human Impacts on Earth Systems',
          'ESS3.D: Global Climate Change',
        ],
      },
    ],
  },
  {
    panel: 'Core Ideas in Engineering, Technology and the Application of Science',
    sections: [
      {
        heading: 'Core Idea ETS1: Engineering Design',
        items: [
          'ETS1.A: Defining and Delimiting Engineering Problems',
          'ETS1.B: Developing Possible Solutions',
          'ETS1.C: Optimizing the Design Solution',
        ],
      },
    ],
  },
];

/** Every standards label, in panel order (57 items). */
export const STANDARDS_ITEMS: readonly string[] = STANDARDS_PANELS.flatMap((p) => p.sections.flatMap((s) => s.items));

/**
 * Labels the mobile apps store for some items (reference §10.3), mapped to the web label,
 * so a selection made on a phone matches the same item on the web.
 */
export const STANDARDS_ALIASES: Readonly<Record<string, string>> = {
  'Using Mathematics and Computational Thinking':
    'Using mathematics, information and computer technology, and computational thinking',
  'Core Idea ESS1: Earth\u2019s Place in the Universe': "Core Idea ESS1: Earth's Place in the Universe",
  'Core Idea ESS2: Earth\u2019s Systems': "Core Idea ESS2: Earth's Systems",
  'ESS2.C: The Roles of Water in Earth\u2019s Surface Processes':
    "ESS2.C: The Roles of Water in Earth's Surface Processes",
};
