import type { RubricLevelInput, RubricUpdateBody } from './rubrics.ts';

/**
 * Ready rubrics a new one can start from. The NGSS science and engineering practices: the eight
 * practices of the framework as criteria, each with four levels scored 1–4. The wording is ours.
 */

const levels = (beginning: string, developing: string, proficient: string, exemplary: string): RubricLevelInput[] => [
  { label: 'Beginning', description: beginning, score: 1 },
  { label: 'Developing', description: developing, score: 2 },
  { label: 'Proficient', description: proficient, score: 3 },
  { label: 'Exemplary', description: exemplary, score: 4 },
];

/** The eight science and engineering practices, four levels each. */
export const NGSS_PRACTICES_TEMPLATE: RubricUpdateBody = {
  name: 'NGSS science and engineering practices',
  description: 'How far students engage in each of the eight practices during the moment or artifact scored.',
  criteria: [
    {
      code: 'SEP1',
      label: 'Asking questions and defining problems',
      description: 'Students pose questions about phenomena or define problems that can be investigated or solved.',
      levels: levels(
        'The teacher supplies the questions; students answer them.',
        'Students ask questions, mostly factual or not yet investigable.',
        'Students ask testable questions or define problems with criteria.',
        'Students refine one another’s questions and choose which to pursue and why.',
      ),
    },
    {
      code: 'SEP2',
      label: 'Developing and using models',
      description: 'Students build, test and revise models that explain or predict a phenomenon.',
      levels: levels(
        'Students copy or label a given model.',
        'Students draw a model that shows parts but not how they interact.',
        'Students use a model to explain or predict, naming its limits.',
        'Students revise their model in the light of evidence and compare it with others’.',
      ),
    },
    {
      code: 'SEP3',
      label: 'Planning and carrying out investigations',
      description: 'Students plan and run investigations that produce data to serve as evidence.',
      levels: levels(
        'Students follow a set procedure without discussing its purpose.',
        'Students help decide some steps or variables of the investigation.',
        'Students plan an investigation with controlled variables and suitable measurements.',
        'Students critique and improve the design of their own and others’ investigations.',
      ),
    },
    {
      code: 'SEP4',
      label: 'Analyzing and interpreting data',
      description: 'Students organise data and look for patterns and relationships in it.',
      levels: levels(
        'Students record data but do not look for patterns.',
        'Students describe a pattern in the data with help.',
        'Students organise data, find patterns and say what they mean for the question.',
        'Students weigh the quality of the data and the limits of what it shows.',
      ),
    },
    {
      code: 'SEP5',
      label: 'Using mathematics and computational thinking',
      description: 'Students use numbers, measurement, graphs and algorithms to represent and reason about data.',
      levels: levels(
        'Mathematics is done for students or is absent.',
        'Students compute or graph when told which method to use.',
        'Students choose mathematical representations that fit the question.',
        'Students use mathematics to test a model or to argue for a conclusion.',
      ),
    },
    {
      code: 'SEP6',
      label: 'Constructing explanations and designing solutions',
      description: 'Students explain phenomena with evidence and reasoning, or design and improve solutions.',
      levels: levels(
        'Students restate what they saw without explaining it.',
        'Students give a claim with some evidence but little reasoning.',
        'Students link claim, evidence and scientific reasoning.',
        'Students compare explanations or designs and justify the stronger one.',
      ),
    },
    {
      code: 'SEP7',
      label: 'Engaging in argument from evidence',
      description: 'Students defend and critique claims using evidence, listening and responding to one another.',
      levels: levels(
        'Talk goes mostly through the teacher; students do not respond to each other.',
        'Students agree or disagree with each other, with little evidence.',
        'Students support and challenge claims with evidence and respond to each other.',
        'Students revise their thinking in response to others’ arguments and say why.',
      ),
    },
    {
      code: 'SEP8',
      label: 'Obtaining, evaluating and communicating information',
      description: 'Students read, judge and share scientific information in several forms.',
      levels: levels(
        'Students copy information from a source.',
        'Students summarise information from a source they were given.',
        'Students combine information from several sources and communicate it clearly.',
        'Students judge the credibility of sources and adapt their communication to an audience.',
      ),
    },
  ],
};
